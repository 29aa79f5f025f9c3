"""Files the command line writes (a strategy chart, a par sheet): checked before any work, written whole."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from croupier.errors import CroupierError


def check_out(path: str | os.PathLike[str], error: type[CroupierError]) -> Path:
    """``path`` as a file ``--out`` can write: in a folder that exists, not a folder itself; else ``error``."""
    target = Path(path)
    if not target.parent.is_dir():
        raise error(f"--out {target}: the folder {target.parent} does not exist")
    if target.is_dir():
        raise error(f"--out {target}: is a folder")
    return target


def write_whole(target: Path, data: bytes, error: type[CroupierError]) -> None:
    """Write ``data`` to ``target`` whole or not at all: a temporary file beside it, renamed into place.
    A failure raises ``error`` naming the file and leaves nothing behind."""
    try:
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
            os.chmod(temporary, 0o644)  # mkstemp makes it private; a written page is for sharing
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as failure:
        raise error(f"--out {target}: cannot write it: {failure.strerror}") from None
