// A plain enum (no fixed underlying type) read as a number: it cannot hold every integer the file
// may give, so the loader refuses it at compile time (the reflect_load fuzz target stored 5 in a
// three-enumerator enum before). EnumNames<Mode> would make it load by name.
#include <filesystem>

#include "praxis/io/reflect_load.hpp"

enum Mode { mode_off, mode_on, mode_auto };

struct Settings {
  BOOST_HANA_DEFINE_STRUCT(Settings, (Mode, mode));
};

void load(Settings& s) { praxis::io::load_struct_into(s, std::filesystem::path("settings.json")); }

// expect: a plain enum cannot hold every integer
