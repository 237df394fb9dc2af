# Sourced by the shell tests that check PNG files.
# png_size FILE: prints "WIDTH HEIGHT" from the IHDR chunk; fails, saying why, unless FILE starts like
# a PNG: the signature 89 'P' 'N' 'G' CR LF 1A LF, then a first chunk of length 13 named "IHDR".
png_size() {
  local bytes b
  bytes=$(od -An -tu1 -N24 "$1" | tr -s ' \n' ' ')
  read -r -a b <<<"$bytes"
  [[ ${#b[@]} -eq 24 ]] || { echo "FAIL: $1 is shorter than a PNG header"; return 1; }
  [[ "${b[*]:0:8}" == "137 80 78 71 13 10 26 10" ]] || { echo "FAIL: $1 has no PNG signature (${b[*]:0:8})"; return 1; }
  [[ "${b[*]:8:8}" == "0 0 0 13 73 72 68 82" ]] || { echo "FAIL: $1 does not begin with an IHDR chunk"; return 1; }
  echo $(((b[16] << 24) | (b[17] << 16) | (b[18] << 8) | b[19])) $(((b[20] << 24) | (b[21] << 16) | (b[22] << 8) | b[23]))
}
