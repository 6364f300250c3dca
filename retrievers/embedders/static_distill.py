"""Distill a static (model2vec) embedder from a local sentence-transformers model folder.

``model2vec.distill`` runs the source transformer once over every token of its vocabulary, reduces
the token vectors with PCA and weights them by estimated token frequency (SIF); the result is a
lookup table: a text's vector is the mean of its tokens' rows. It runs offline on the packaged
MiniLM folder. model2vec's ``[distill]`` extra pins ``transformers<5.4`` (it would downgrade the
installed stack), so pyproject installs ``model2vec`` and the extra's other requirement
(``skeletoken``) directly; the distillation itself runs with the installed transformers.
"""
from __future__ import annotations

from pathlib import Path

from retrievers.embedders.builds import BuildSpec, Built, ensure_built, require, source_model
from retrievers.embedders.model_source import model_identity
from retrievers.identity.declare import PartId
from retrievers.identity.key import part_key
from retrievers.identity.libraries import library_versions

PIP = "model2vec==0.10.0 skeletoken==0.6.1"
# a build is minutes of work, so it has no probe: bump the version when the distillation changes
DISTILL = PartId("retrievers.embedders.static_distill", 1)


def distill_code() -> str:
    """Identity of the distillation: its declared version and the libraries it runs."""
    return part_key([DISTILL], None, library_versions([__name__], ("model2vec", "skeletoken", "torch",
                                                                   "transformers", "tokenizers", "sklearn")))


def static_spec(model: str, settings: dict) -> BuildSpec:
    src = source_model(model)
    return BuildSpec("static", model_identity(str(src)), dict(sorted(settings.items())), distill_code())


def static_settings(pca_dims: int | None, sif_coefficient: float | None, quantize_to: str) -> dict:
    """The distillation settings a static model's build key holds."""
    return {"pca_dims": pca_dims, "sif_coefficient": sif_coefficient, "quantize_to": quantize_to,
            "vocabulary": "tokenizer"}


def build_static(model: str, cache_dir: str, pca_dims: int | None, sif_coefficient: float | None,
                 quantize_to: str) -> Built:
    """The distilled static model of ``model``, from the cache or distilled now."""
    settings = static_settings(pca_dims, sif_coefficient, quantize_to)
    spec = static_spec(model, settings)
    src = source_model(model)

    def build(out: Path) -> None:
        from tqdm.auto import tqdm

        distill = require("model2vec.distill", PIP)
        require("skeletoken", PIP)
        with tqdm(total=2, desc=f"model2vec distillation of {src.name}", unit="step") as bar:
            static = distill.distill(str(src), vocabulary=None, device="cpu", pca_dims=pca_dims,
                                     sif_coefficient=sif_coefficient, quantize_to=quantize_to)
            bar.update()
            static.save_pretrained(str(out))
            bar.update()

    return ensure_built(cache_dir, spec, build)
