# ruff: noqa
# Bad: a flat training script, everything at module level.
# Shape of XuXingyu-98/DSSM Data_prepare.py and williscp/cv_keyboard train.py (public code
# corpus): a Dataset class, a DataLoader with workers and the epoch loop all at top level.
# Workers start when the loader is iterated (each marked line confirmed by running under spawn).
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class PairDataset(Dataset):
    def __init__(self, n):
        self.x = np.random.rand(n, 8).astype("float32")

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i])


train_set = PairDataset(64)
loader = DataLoader(train_set, batch_size=8, shuffle=True, num_workers=4)  # starts nothing yet
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

for epoch in range(3):
    for batch in loader:  # error: DLD026
        opt.zero_grad()
        model(batch).sum().backward()
        opt.step()

# Positional num_workers (6th argument), only measured with len(): no worker starts.
val_loader = torch.utils.data.DataLoader(train_set, 8, False, None, None, 2)
print(len(val_loader))
# A count the file does not determine is reported as unresolved.
for batch in DataLoader(train_set, batch_size=8, num_workers=np.int64(2)):  # error: DLD026
    pass
