from collections.abc import Callable, Iterable
from typing import Any

class WhiteNoise:
    def __init__(
        self,
        application: Any,
        root: str | None = None,
        prefix: str | None = None,
        *,
        autorefresh: bool = False,
        max_age: int | None = 60,
        allow_all_origins: bool = True,
        charset: str = "utf-8",
        mimetypes: dict[str, str] | None = None,
        add_headers_function: Callable[[Any, str, str], None] | None = None,
        index_file: str | bool | None = None,
        immutable_file_test: Callable[[str, str], bool] | str | None = None,
    ) -> None: ...
    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]: ...
    def serve(
        self, static_file: Any, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]: ...
