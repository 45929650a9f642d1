#pragma once
// Included by main.cpp: editing it must rewrite main.cpp again.
inline int scaled(int v) { return v * FIXTURE_SCALE; }
