"""The ``SCHEME:NAME<sep>VERSION`` form of pinned registry sources (``npm:NAME@VERSION``,
``deb:PACKAGE=VERSION``), checked declaratively: each scheme states its name and version
patterns, an example and the command that lists its versions, and every error names the fix."""
from __future__ import annotations

import re
from dataclasses import dataclass

from hermes_eval.core.errors import UserError


@dataclass(frozen=True)
class PinnedSpec:
    scheme: str            # "npm"
    sep: str               # between name and version: the last one counts ("@scope/name@1.0")
    name: re.Pattern       # a valid name
    version: re.Pattern    # a pinned version (no ranges, no tags)
    what: str              # "an npm package name"
    version_what: str      # "an exact version; pin one release"
    example: str           # "npm:commander@12.1.0"
    version_example: str   # "1.2.3"
    lister: str            # "npm view {name} versions"

    def parse(self, spec: str) -> tuple[str, str]:
        """``SCHEME:NAME<sep>VERSION`` -> (name, version), or a UserError naming the fix."""
        body = spec.split(":", 1)[1]
        at = body.rfind(self.sep)
        name, version = (body[:at], body[at + 1:]) if at > 0 else (body, "")
        lister = f"`{self.lister.format(name=name)}` lists them"
        if not self.name.match(name):
            raise UserError(f"corpus source {spec!r}: {name!r} is not {self.what}; write "
                            f"{self.scheme}:NAME{self.sep}VERSION (e.g. {self.example})")
        if not version:
            raise UserError(f"corpus source {spec!r}: {self.scheme}:{name} needs a version: write "
                            f"{self.scheme}:{name}{self.sep}VERSION ({lister})")
        if not self.version.match(version):
            raise UserError(f"corpus source {spec!r}: {version!r} is not {self.version_what}, e.g. "
                            f"{self.scheme}:{name}{self.sep}{self.version_example} ({lister})")
        return name, version
