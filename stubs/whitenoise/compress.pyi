from collections.abc import Callable, Iterable

class Compressor:
    def __init__(
        self,
        extensions: Iterable[str] | None = None,
        use_gzip: bool = True,
        use_brotli: bool = True,
        log: Callable[[str], None] = ...,
        quiet: bool = False,
    ) -> None: ...
    def should_compress(self, filename: str) -> bool: ...
    def compress(self, path: str) -> list[str]: ...
