// The translation unit that builds the tests' precompiled header (tests/testing/pch.h).
