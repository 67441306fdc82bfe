"""Seeds of the games in a batch: game ``i`` of a batch with seed ``s`` always gets the same one."""

from __future__ import annotations

import hashlib


def game_seed(batch_seed: int, index: int) -> int:
    """A 63-bit seed for game ``index``; independent of job count, back end and order.

    Hashing (rather than ``batch_seed + index``) keeps batches with nearby seeds from
    sharing games, so two batches can be pooled.
    """
    digest = hashlib.blake2b(f"musici:{batch_seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


__all__ = ["game_seed"]
