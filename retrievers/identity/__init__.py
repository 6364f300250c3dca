"""What names a part and what keys the results it makes: declared, not read from its source text.

- :mod:`.declare`: a part's frozen name and version (``@declare("…", version=1)``).
- :mod:`.names`: configs in named form (every ``_target_`` as its part's name) and back.
- :mod:`.libraries`: the third-party libraries a part's modules import, with their versions.
- :mod:`.probe`: a fixed input every part of a kind is run on; its output's digest is part of the key.
- :mod:`.key`: the cache identity of a built part: names, versions, libraries and probe digest.

A module move, a rename or a refactor with equal outputs keeps every key (the name is declared and the
probe's output is the same); a change in what a part outputs on the probe changes its key, and a change
the probe cannot see is declared by bumping the version (``tests/retrievers/identity`` holds each
part's probe digest with its version and fails when one changes without the other).
"""
