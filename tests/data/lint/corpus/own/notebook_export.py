#!/usr/bin/env python
# coding: utf-8
# Own corpus: a notebook exported with nbconvert (cells as "# In[n]:" comments).

# In[1]:


import torch
from torch.utils.data import DataLoader, TensorDataset


# In[2]:


X = torch.randn(12, 4)
y = (X.sum(dim=1) > 0).long()
ds = TensorDataset(X, y)
dl = DataLoader(ds, batch_size=4, shuffle=True, num_workers=2)


# In[3]:


net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
opt = torch.optim.Adam(net.parameters())


# In[4]:


for xb, yb in dl:
    opt.zero_grad()
    torch.nn.functional.cross_entropy(net(xb), yb).backward()
    opt.step()


# In[5]:


print("accuracy", (net(X).argmax(1) == y).float().mean().item())
