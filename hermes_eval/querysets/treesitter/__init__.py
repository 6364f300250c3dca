"""Go, Rust, JavaScript and TypeScript source analysis with tree-sitter: the same roles as ``python/``."""
