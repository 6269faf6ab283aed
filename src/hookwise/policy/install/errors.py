"""The one error of install and uninstall, raised by the editors and the plans alike."""

from __future__ import annotations


class InstallError(Exception):
    """Nothing was written: a settings file is broken or cannot be changed safely."""


__all__ = ["InstallError"]
