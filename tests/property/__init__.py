"""Property tests (hypothesis): package import, list import/export, validators (issue #8 item 2)."""
