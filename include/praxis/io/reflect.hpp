#pragma once
// Struct reflection at the edges (docs/parameters.md): parameters from JSON by field name, and
// values as named columns for logs and recordings. Include the part you need to compile less:
// reflect_load.hpp (JSON), reflect_fields.hpp (names and values, allocation-free visit),
// reflect_csv.hpp (a CSV recorder, off the cycle).

#include "praxis/io/reflect_csv.hpp"
#include "praxis/io/reflect_fields.hpp"
#include "praxis/io/reflect_load.hpp"
