# Own corpus: Lightning with a DataModule whose loaders have workers; fit at module level.
import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset


class ToyData(L.LightningDataModule):
    def __init__(self, batch_size=4, num_workers=1):
        super().__init__()
        self.batch_size = batch_size
        self.num_workers = num_workers

    def setup(self, stage=None):
        self.train_set = TensorDataset(torch.randn(8, 2), torch.randn(8, 1))

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.batch_size, num_workers=self.num_workers)


class Model(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(2, 1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.mse_loss(self.layer(x), y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters())


dm = ToyData()
model = Model()
trainer = L.Trainer(max_epochs=1, logger=False, enable_checkpointing=False,
                    enable_progress_bar=False, enable_model_summary=False)
trainer.fit(model, datamodule=dm)
