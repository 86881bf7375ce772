"""The shipped data files are read from beside the package, as importlib.resources
reads them, and through it where the package is not plain files."""

from __future__ import annotations

from importlib import resources

import pytest

from budgetcore import _shipped
from budgetcore.conformance.cases import SHIPPED_CASES
from budgetcore.registry import models, peers

NAMES = (models.DATA_FILE, peers.DATA_FILE, SHIPPED_CASES)


@pytest.mark.parametrize("name", NAMES)
def test_a_shipped_file_is_the_bytes_importlib_resources_reads(name: str) -> None:
    expected = resources.files("budgetcore").joinpath(name).read_bytes()
    assert len(expected) > 1_000
    assert _shipped.shipped_bytes(name) == expected


@pytest.mark.parametrize("name", NAMES)
def test_a_package_that_is_not_plain_files_is_read_through_importlib_resources(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    real = resources.files

    def files(package: str) -> object:
        calls.append(package)
        return real(package)

    monkeypatch.setattr(_shipped, "_HERE", "/nonexistent/budgetcore")
    monkeypatch.setattr(resources, "files", files)
    assert _shipped.shipped_bytes(name) == real("budgetcore").joinpath(name).read_bytes()
    assert calls == ["budgetcore"]


def test_a_missing_file_is_an_error_not_empty_bytes() -> None:
    with pytest.raises(FileNotFoundError):
        _shipped.shipped_bytes("data/no-such-file.json")
