# Own corpus: a tqdm loop over range at module level and a guarded worker loader.
import torch
from torch.utils.data import DataLoader
from tqdm import tqdm

table = [i * i for i in tqdm(range(5), disable=True)]
loader = DataLoader(torch.tensor(table, dtype=torch.float32), batch_size=2, num_workers=1)

if __name__ == "__main__":
    for b in tqdm(loader, disable=True):
        print(b)
