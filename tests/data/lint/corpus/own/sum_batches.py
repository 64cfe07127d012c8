# Own corpus: counting samples with sum() over a generator of batches.
import torch
from torch.utils.data import DataLoader

loader = DataLoader(torch.zeros(20, 2), batch_size=6, num_workers=1)
n_samples = sum(batch.shape[0] for batch in loader)
print("samples:", n_samples)
