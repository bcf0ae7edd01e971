"""Configs: TOML files structured by cattrs, with errors naming file, key path and expectation."""

import attrs
import pytest

from mindgames.config import load_toml, structure
from mindgames.errors import CapabilityError, ConfigError


@attrs.frozen
class Inner:
    depth: int = 2


@attrs.frozen
class Outer:
    name: str
    inner: Inner = Inner()
    weights: tuple[float, ...] = ()


def test_structure_builds_nested_classes():
    got = structure({"name": "x", "inner": {"depth": 4}, "weights": [1, 2]}, Outer, where="t")
    assert got == Outer("x", Inner(4), (1.0, 2.0))


def test_wrong_type_names_the_key_path():
    with pytest.raises(
        ConfigError, match=r"^cfg.toml: inner\.depth: expected an integer, got .deep. \(str\)"
    ):
        structure({"name": "x", "inner": {"depth": "deep"}}, Outer, where="cfg.toml")


def test_unknown_key_is_refused():
    with pytest.raises(ConfigError, match=r"cfg.toml: .*extra fields.*colour"):
        structure({"name": "x", "colour": "red"}, Outer, where="cfg.toml")


def test_missing_required_key():
    with pytest.raises(ConfigError, match=r"cfg.toml: name: required field missing"):
        structure({}, Outer, where="cfg.toml")


@attrs.frozen
class Picky:
    size: int = 3

    def __attrs_post_init__(self):
        if self.size > 9:
            raise CapabilityError(f"size {self.size} is more than this game can play")


def test_an_error_the_class_raises_itself_keeps_its_type_and_message():
    assert structure({"size": 4}, Picky, where="t") == Picky(4)
    with pytest.raises(CapabilityError, match=r"^game 'picky:size=10': size 10 is more than"):
        structure({"size": 10}, Picky, where="game 'picky:size=10'")


def test_bad_toml_names_file_and_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("a = 1\nb = = 2\n")
    with pytest.raises(ConfigError, match=r"bad.toml: invalid TOML: .*line"):
        load_toml(path)


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="no such file"):
        load_toml(tmp_path / "nope.toml")
