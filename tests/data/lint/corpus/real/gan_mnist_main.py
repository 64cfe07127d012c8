# Real-shaped corpus: the structure of https://github.com/ivan-selchenkov/gan-mnist
# (main.py at commit 5266a2b4ea221214b6852381256a1daf12758ff7), rewritten, not copied: a flat
# GAN training script with num_workers = 0 at module level, the loader built at module level
# and the epoch loop (enumerate over the loader) at module level, helpers using globals.
# Trimmed to run here: random tensors instead of downloading MNIST, one epoch of a few
# batches, tiny inline models instead of the repository's discriminator/generator modules,
# no plotting or pickling.
import torch
from torch import optim

num_workers = 0
batch_size = 4

images = torch.rand(16, 1, 4, 4)
labels = torch.zeros(16)
train_data = torch.utils.data.TensorDataset(images, labels)
train_loader = torch.utils.data.DataLoader(train_data, batch_size=batch_size, num_workers=num_workers)

lr = 0.002
D = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(16, 1))
G = torch.nn.Linear(8, 16)
d_optim = optim.Adam(D.parameters(), lr=lr)
g_optim = optim.Adam(G.parameters(), lr=lr)
z_size = 8
num_epochs = 1
losses = []


def train_discriminator(real_images, optimizer, batch_size, z_size):
    optimizer.zero_grad()
    real = torch.nn.functional.softplus(-D(real_images)).mean()
    fake = torch.nn.functional.softplus(D(G(torch.randn(batch_size, z_size)).view(-1, 1, 4, 4))).mean()
    loss = real + fake
    loss.backward()
    optimizer.step()
    return loss


def train_generator(optimizer, batch_size, z_size):
    optimizer.zero_grad()
    loss = torch.nn.functional.softplus(-D(G(torch.randn(batch_size, z_size)).view(-1, 1, 4, 4))).mean()
    loss.backward()
    optimizer.step()
    return loss


for epoch in range(num_epochs):
    for batch_i, (real_images, _) in enumerate(train_loader):
        batch_size = real_images.size(0)
        real_images = real_images * 2 - 1
        d_loss = train_discriminator(real_images, d_optim, batch_size, z_size)
        g_loss = train_generator(g_optim, batch_size, z_size)
    losses.append((d_loss.item(), g_loss.item()))
print(losses)
