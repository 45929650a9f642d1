#pragma once
// Not included by main.cpp: editing it must not rewrite anything.
