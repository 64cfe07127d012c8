#!/usr/bin/env python
# coding: utf-8
# Own corpus: an exported notebook, cleaned up with a main guard around the training.

# In[1]:


import torch
from torch.utils.data import DataLoader, TensorDataset


# In[2]:


ds = TensorDataset(torch.randn(12, 4), torch.randint(0, 2, (12,)))
dl = DataLoader(ds, batch_size=4, shuffle=True, num_workers=2)
net = torch.nn.Linear(4, 2)


# In[3]:


def fit():
    opt = torch.optim.Adam(net.parameters())
    for xb, yb in dl:
        opt.zero_grad()
        torch.nn.functional.cross_entropy(net(xb), yb).backward()
        opt.step()


if __name__ == "__main__":
    fit()
