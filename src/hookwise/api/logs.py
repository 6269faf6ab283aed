"""The service's log: plain text or one JSON object per line, on stderr.

Error answers are logged at WARNING with their request id by the middleware, so the
default level shows every one of them; ``--access-log`` adds uvicorn's line per request.
"""

from __future__ import annotations

import json
import logging
import logging.config
import time
from typing import Final

FORMATS: Final = ("text", "json")
_TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message (and the exception)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = getattr(record, "request_id", None)
        if request_id is not None:
            entry["requestId"] = request_id
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure(level: str = "info", fmt: str = "text") -> dict[str, object]:
    """Install the handler on the ``hookwise`` and ``uvicorn`` loggers; returns the
    ``log_config`` for uvicorn (so its workers log the same way)."""
    formatter = "json" if fmt == "json" else "text"
    config: dict[str, object] = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "text": {"format": _TEXT},
            "json": {"()": f"{__name__}.JsonFormatter"},
        },
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": formatter,
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            name: {"handlers": ["stderr"], "level": level.upper(), "propagate": False}
            for name in ("hookwise", "uvicorn", "uvicorn.error", "uvicorn.access")
        },
    }
    logging.config.dictConfig(config)
    # WARNING (every error answer) shows even when the level asked for less.
    logging.getLogger("hookwise").setLevel(
        min(logging.WARNING, logging.getLevelName(level.upper()))
    )
    return config
