#!/bin/sh
exec python3 -m pytest -q >&2
