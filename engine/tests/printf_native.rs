//! `printf` formats compared with the native C library.
