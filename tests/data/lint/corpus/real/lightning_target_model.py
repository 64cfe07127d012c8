# Real-shaped corpus: the structure of https://github.com/AnverK/deep-learning-project
# (models/adv_gan_lightning/train_target_model.py at commit
# ba9c5cb63a4e848461cc02723cdc17522ab40742), rewritten, not copied: module constants
# (AVAIL_GPUS from the CUDA device count, BATCH_SIZE, NUM_WORKERS = 2), a data module, a
# model, a Trainer and trainer.fit(model, dm) all at module level. The author's comment on
# the data module line reads "if I set num_workers I get an Error"; here it is set.
# Trimmed to run here: pl_bolts' MNISTDataModule replaced by an in-file LightningDataModule
# over random tensors taking num_workers=NUM_WORKERS, the repository's TargetModel by a tiny
# LightningModule, one epoch, no checkpoint saved, the Trainer's old `gpus=` arguments dropped.
import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset

AVAIL_GPUS = min(1, torch.cuda.device_count())
BATCH_SIZE = 256 if AVAIL_GPUS else 4
NUM_WORKERS = 2


class RandomMNIST(L.LightningDataModule):
    def __init__(self, data_dir, batch_size=32, num_workers=0):
        super().__init__()
        self.data_dir = data_dir
        self.batch_size = batch_size
        self.num_workers = num_workers

    def setup(self, stage=None):
        self.train = TensorDataset(torch.rand(8, 1, 4, 4), torch.randint(0, 10, (8,)))

    def train_dataloader(self):
        return DataLoader(self.train, batch_size=self.batch_size, num_workers=self.num_workers)


class TargetModel(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(16, 10)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.cross_entropy(self.fc(x.flatten(1)), y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters())


dm = RandomMNIST(".", batch_size=BATCH_SIZE, num_workers=NUM_WORKERS)
model = TargetModel()
trainer = L.Trainer(max_epochs=1, logger=False, enable_checkpointing=False,
                    enable_progress_bar=False, enable_model_summary=False)
trainer.fit(model, dm)
