"""Python source analysis with ``ast``: definitions, the repository index, name resolution, holes."""
