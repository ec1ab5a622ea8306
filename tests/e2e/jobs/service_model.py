"""A tiny conv + linear classifier, in the FILE:FACTORY form (`tct startup service_model.py:make_model`)
that tests/e2e/jobs/conv_service.py serves as a command: the same module, built the same way."""
import torch
from torch import nn


class TinyConvNet(nn.Module):
    def __init__(self, channels: int = 8, classes: int = 10):
        super().__init__()
        self.conv = nn.Conv2d(3, channels, 3, padding=1)
        self.head = nn.Linear(channels * 4 * 4, classes)

    def forward(self, x):
        x = torch.relu(self.conv(x))
        x = nn.functional.adaptive_avg_pool2d(x, 4)
        return self.head(x.flatten(1))


def build(batch: int = 2):
    """The model in eval mode and one request's input, from a fixed seed."""
    torch.manual_seed(0)
    return TinyConvNet().eval(), torch.randn(batch, 3, 16, 16)


def make_model(batch: int = 2):
    model, x = build(batch)
    return model, (x,)
