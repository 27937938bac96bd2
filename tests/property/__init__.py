"""Property tests (hypothesis): package import, list import/export, validators."""
