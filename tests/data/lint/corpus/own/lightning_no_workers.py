# Own corpus: Lightning fit at module level, but the model's loader has no workers.
import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset


class Model(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(2, 1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.mse_loss(self.layer(x), y)

    def train_dataloader(self):
        ds = TensorDataset(torch.randn(8, 2), torch.randn(8, 1))
        return DataLoader(ds, batch_size=4, shuffle=True)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters())


trainer = L.Trainer(max_epochs=1, logger=False, enable_checkpointing=False,
                    enable_progress_bar=False, enable_model_summary=False)
trainer.fit(Model())
