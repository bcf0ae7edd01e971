"""The built-in model kinds, registered through the ``mindgames`` entry point like any plugin."""

from __future__ import annotations

from mindgames import ModelInfo, hookimpl
from mindgames.evaluators import linear, material, mlp, phased, staged


@hookimpl
def mindgames_models() -> list[ModelInfo]:
    """material, linear, mlp, phased and staged."""
    return [
        ModelInfo(
            "material",
            material.Material,
            material.MaterialConfig,
            material.create,
            default_encoding="material",
            description="the game's material encoding summed and squashed (baseline)",
        ),
        ModelInfo(
            "linear",
            linear.Linear,
            linear.LinearConfig,
            linear.create,
            description="weights over (some) columns, squashed: none, tanh or soft",
        ),
        ModelInfo(
            "mlp",
            mlp.MLP,
            mlp.MLPConfig,
            mlp.create,
            description="multi-layer perceptron, tanh/sigmoid units, optional direct links",
        ),
        ModelInfo(
            "phased",
            phased.Phased,
            phased.PhasedConfig,
            phased.create,
            description="IF condition THEN linear combination components; presets 8F 10F 3Ph 5Ph",
        ),
        ModelInfo(
            "staged",
            staged.Staged,
            staged.StagedConfig,
            staged.create,
            description="one sub-model per game stage (a measure of named columns split in ranges)",
        ),
    ]
