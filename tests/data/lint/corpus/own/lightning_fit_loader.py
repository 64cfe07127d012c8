# Own corpus: Lightning, a DataLoader with workers handed to Trainer.fit at module level.
import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset


class Regressor(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(2, 1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.mse_loss(self.net(x), y)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


ds = TensorDataset(torch.randn(8, 2), torch.randn(8, 1))
train_loader = DataLoader(ds, batch_size=4, num_workers=1)
trainer = L.Trainer(max_epochs=1, logger=False, enable_checkpointing=False,
                    enable_progress_bar=False, enable_model_summary=False)
trainer.fit(Regressor(), train_dataloaders=train_loader)
