/* penumbra's POSIX environment for programs linked with musl: musl's system calls arrive here
 * (__penumbra_syscall, see arch/syscall_arch.h). Calls on the symbolic files A, B, ...
 * (--sym-files COUNT SIZE) are answered in C, as KLEE's POSIX runtime answers them: a path
 * names file A when it is exactly "A", so a program opening a symbolic name forks where the
 * name is or is not a file's, and reads copy the file's symbolic bytes. Standard input is a
 * regular file of the --sym-stdin bytes, stdout and stderr regular files, as native replay
 * gives them. Every other call goes to the engine (__penumbra_kernel), which answers the
 * standard streams' reads and writes and the process's fixed facts, and ends a path at a call
 * it does not model. Files are read-only: opening one for writing fails with EACCES.
 * With --sym-file-types, standard input and each file is a regular file, a pipe or a terminal
 * as a one-byte object says (stdin-type, A-type, ...: 1 a pipe, 2 a terminal, any other value
 * a regular file), as KLEE's symbolic stat lets them be: fstat and stat say so, a pipe or a
 * terminal does not seek (ESPIPE), and only a terminal answers the terminal ioctls (isatty).
 * A path forks on the type only where the program asks.
 * The working directory "." is a directory, as in native replay's: it opens for reading,
 * fstat says S_IFDIR, reading it fails with EISDIR, and getdents64 lists what replay's fresh
 * directory holds: ".", ".." and the symbolic files A, B, ... (a file's d_type DT_REG, or
 * with --sym-file-types DT_UNKNOWN, as some file systems give it: a program that needs the
 * type asks stat, which forks on the type object only there). ".." is a directory for stat
 * and open; listing it (replay's scratch directory) is not modelled: getdents64 on it goes
 * to the engine, which ends the path as unsupported. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include "syscall.h"
#include "kstat.h"

long __penumbra_kernel(long n, long a1, long a2, long a3, long a4, long a5, long a6);
/* The --sym-files option: COUNT << 32 | SIZE (0 without it), and TYPES_BIT for
 * --sym-file-types. */
unsigned long __penumbra_sym_files(void);
#define TYPES_BIT (1UL << 63)
void penumbra_make_symbolic(void *addr, size_t size, const char *name);

#define MAX_FILES 26
#define MAX_OPEN 64
#define FIRST_FD 3
/* Inode numbers: the standard streams 1-3, the parent directory 8, the working directory 9,
 * file A 10, B 11, ... */
#define PARENT_INO 8
#define DIR_INO 9
#define FILE_INO 10

struct sym_file {
	unsigned char *data;
	size_t size;
	/* The file's type object (--sym-file-types), else 0: a regular file. */
	unsigned char *type;
	/* The working directory's entry (cwd below): no data, no type object. */
	int directory;
};

static struct sym_file files[MAX_FILES];
static unsigned nfiles;
static struct sym_file cwd = { .directory = 1 };
static struct sym_file parent = { .directory = 1 };
/* Standard input's type object (--sym-file-types), else 0: a regular file. */
static unsigned char *stdin_type;

enum file_kind { REGULAR, PIPE, TERMINAL, DIRECTORY };

/* The kind a type object says (the values native replay reads the same way). */
static enum file_kind kind_of(const unsigned char *type)
{
	if (!type) return REGULAR;
	if (*type == 1) return PIPE;
	if (*type == 2) return TERMINAL;
	return REGULAR;
}

static enum file_kind file_kind(const struct sym_file *f)
{
	return f->directory ? DIRECTORY : kind_of(f->type);
}

/* Pipes and terminals do not seek (ESPIPE): not for lseek, pread or fadvise. */
static int seeks(const struct sym_file *f)
{
	enum file_kind kind = file_kind(f);
	return kind != PIPE && kind != TERMINAL;
}

static unsigned char *type_object(const char *name)
{
	unsigned char *type = malloc(1);
	penumbra_make_symbolic(type, 1, name);
	return type;
}

struct open_file {
	struct sym_file *file;
	long pos;
	int flags;
	int fd_flags;
};

/* Descriptor FIRST_FD + i. */
static struct open_file open_files[MAX_OPEN];

/* Makes the symbolic files, named A-data, B-data, ... as KLEE names their objects. */
void __penumbra_posix_init(void)
{
	unsigned long spec = __penumbra_sym_files();
	unsigned count = (spec & ~TYPES_BIT) >> 32;
	size_t size = spec & 0xffffffff;
	if (count > MAX_FILES) count = MAX_FILES;
	for (unsigned i = 0; i < count; i++) {
		char name[] = "A-data";
		name[0] = 'A' + i;
		files[i].data = malloc(size ? size : 1);
		files[i].size = size;
		if (size) penumbra_make_symbolic(files[i].data, size, name);
	}
	nfiles = count;
	if (spec & TYPES_BIT) {
		stdin_type = type_object("stdin-type");
		for (unsigned i = 0; i < count; i++) {
			char name[] = "A-type";
			name[0] = 'A' + i;
			files[i].type = type_object(name);
		}
	}
}

static struct sym_file *lookup(const char *path)
{
	for (unsigned i = 0; i < nfiles; i++)
		if (path[0] == 'A' + i && path[1] == 0) return &files[i];
	if (path[0] == '.' && path[1] == 0) return &cwd;
	if (path[0] == '.' && path[1] == '.' && path[2] == 0) return &parent;
	return 0;
}

static struct open_file *open_file(long fd)
{
	if (fd < FIRST_FD || fd >= FIRST_FD + MAX_OPEN) return 0;
	struct open_file *f = &open_files[fd - FIRST_FD];
	return f->file ? f : 0;
}

/* A pipe and a terminal have no size; a terminal is a pseudo-terminal's device, as in replay. */
static long stat_of(struct kstat *st, unsigned long ino, unsigned long size, enum file_kind kind)
{
	memset(st, 0, sizeof *st);
	st->st_dev = 1;
	st->st_ino = ino;
	st->st_nlink = 1;
	st->st_blksize = 4096;
	if (kind == PIPE) {
		st->st_mode = S_IFIFO | 0600;
	} else if (kind == TERMINAL) {
		st->st_mode = S_IFCHR | 0620;
		st->st_rdev = 136 << 8;
	} else if (kind == DIRECTORY) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		st->st_size = 4096;
		st->st_blocks = 8;
	} else {
		st->st_mode = S_IFREG | 0644;
		st->st_size = size;
		st->st_blocks = (size + 511) / 512;
	}
	return 0;
}

static unsigned long inode_of(const struct sym_file *f)
{
	return f == &parent ? PARENT_INO : f == &cwd ? DIR_INO : FILE_INO + (f - files);
}

static long file_stat(struct kstat *st, const struct sym_file *f)
{
	return stat_of(st, inode_of(f), f->size, file_kind(f));
}

/* ioctl on standard input or a symbolic file of this kind: a terminal answers TCGETS and
 * TIOCGWINSZ (isatty asks the second) with zeroed settings and size, as replay's
 * pseudo-terminal has none set. */
static long file_ioctl(enum file_kind kind, long request, long arg)
{
	if (kind != TERMINAL) return -ENOTTY;
	switch (request) {
	case TCGETS: memset((void *)arg, 0, 36); return 0; /* the kernel's struct termios */
	case TIOCGWINSZ: memset((void *)arg, 0, sizeof(struct winsize)); return 0;
	}
	return -EINVAL;
}

static long sym_open(const char *path, long flags)
{
	struct sym_file *f = lookup(path);
	if (!f) return -ENOENT;
	if ((flags & O_ACCMODE) != O_RDONLY) return f->directory ? -EISDIR : -EACCES;
	if ((flags & O_DIRECTORY) && !f->directory) return -ENOTDIR;
	for (int i = 0; i < MAX_OPEN; i++) {
		if (!open_files[i].file) {
			open_files[i] = (struct open_file){ f, 0, flags & ~O_CLOEXEC, (flags & O_CLOEXEC) ? FD_CLOEXEC : 0 };
			return FIRST_FD + i;
		}
	}
	return -EMFILE;
}

static long sym_read(struct open_file *f, unsigned char *buf, size_t n, long at)
{
	size_t size = f->file->size;
	if (f->file->directory) return -EISDIR;
	if (at < 0 || (size_t)at >= size) return 0;
	size_t k = size - at < n ? size - at : n;
	memcpy(buf, f->file->data + at, k);
	return k;
}

/* getdents64 on the working directory: entry f->pos onwards (".", "..", then the files), as
 * many as fit in n bytes; musl's struct dirent is the kernel's linux_dirent64, each record
 * padded to 8 bytes. */
static long sym_getdents64(struct open_file *f, unsigned char *buf, size_t n)
{
	size_t used = 0;
	for (long i = f->pos; i < 2 + (long)nfiles; i++) {
		const struct sym_file *entry = i == 0 ? &cwd : i == 1 ? &parent : &files[i - 2];
		char name[3] = { '.', i == 1 ? '.' : 0, 0 };
		if (i >= 2) name[0] = 'A' + (i - 2);
		size_t len = strlen(name);
		unsigned short reclen = (offsetof(struct dirent, d_name) + len + 1 + 7) & ~7;
		if (used + reclen > n) return used ? (long)used : -EINVAL;
		struct dirent *d = (struct dirent *)(buf + used);
		memset(d, 0, reclen);
		d->d_ino = inode_of(entry);
		d->d_off = i + 1;
		d->d_reclen = reclen;
		d->d_type = entry->directory ? DT_DIR : entry->type ? DT_UNKNOWN : DT_REG;
		memcpy(d->d_name, name, len);
		used += reclen;
		f->pos = i + 1;
	}
	return used;
}

static long sym_readv(struct open_file *f, const struct iovec *iov, long count)
{
	long total = 0;
	for (long i = 0; i < count; i++) {
		long k = sym_read(f, iov[i].iov_base, iov[i].iov_len, f->pos);
		if (k < 0) return total ? total : k;
		f->pos += k;
		total += k;
		if ((size_t)k < iov[i].iov_len) break;
	}
	return total;
}

static long sym_lseek(struct open_file *f, long off, long whence)
{
	if (!seeks(f->file)) return -ESPIPE;
	long base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? f->pos : whence == SEEK_END ? (long)f->file->size : -1;
	if (base < 0 || base + off < 0) return -EINVAL;
	return f->pos = base + off;
}

static long sym_fcntl(long fd, struct open_file *f, long cmd, long arg)
{
	switch (cmd) {
	case F_GETFD: return f->fd_flags;
	case F_SETFD: f->fd_flags = arg & FD_CLOEXEC; return 0;
	case F_GETFL: return f->flags;
	case F_SETFL: return 0;
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		for (long i = arg < FIRST_FD ? 0 : arg - FIRST_FD; i < MAX_OPEN; i++) {
			if (!open_files[i].file) {
				open_files[i] = *f;
				open_files[i].fd_flags = cmd == F_DUPFD_CLOEXEC ? FD_CLOEXEC : 0;
				return FIRST_FD + i;
			}
		}
		return -EMFILE;
	}
	(void)fd;
	return -EINVAL;
}

/* fstat of a descriptor that is not a symbolic file's. */
static long std_fstat(long fd, struct kstat *st)
{
	if (fd == 0) {
		/* The size of standard input, without moving its position. */
		long at = __penumbra_kernel(SYS_lseek, 0, 0, SEEK_CUR, 0, 0, 0);
		long end = __penumbra_kernel(SYS_lseek, 0, 0, SEEK_END, 0, 0, 0);
		__penumbra_kernel(SYS_lseek, 0, at, SEEK_SET, 0, 0, 0);
		return stat_of(st, 1, end, kind_of(stdin_type));
	}
	if (fd == 1 || fd == 2) return stat_of(st, fd + 1, 0, REGULAR);
	return -EBADF;
}

/* The standard streams the program closed: a second close, and any I/O on them, fail with
 * EBADF as the kernel's would (comm closes stdin twice for `comm - -`, and says so). */
static unsigned char std_closed[3];

static int takes_fd(long n)
{
	switch (n) {
	case SYS_read: case SYS_write: case SYS_readv: case SYS_writev: case SYS_pread64:
	case SYS_lseek: case SYS_fstat: case SYS_fcntl: case SYS_ioctl: case SYS_fadvise64:
	case SYS_close:
		return 1;
	}
	return 0;
}

long __penumbra_syscall(long n, long a1, long a2, long a3, long a4, long a5, long a6)
{
	struct open_file *f;
	/* The call first: a1 of another call (exit's status) may differ between the versions, and
	 * a test of it here would be a divergence of its own. */
	if (takes_fd(n) && a1 >= 0 && a1 <= 2) {
		if (std_closed[a1]) return -EBADF;
		if (n == SYS_close) {
			std_closed[a1] = 1;
			return 0;
		}
	}
	if (stdin_type && takes_fd(n) && a1 == 0) {
		enum file_kind kind = kind_of(stdin_type);
		if (n == SYS_ioctl) return file_ioctl(kind, a2, a3);
		if (kind != REGULAR && (n == SYS_lseek || n == SYS_pread64 || n == SYS_fadvise64)) return -ESPIPE;
	}
	switch (n) {
	case SYS_open:
		if (nfiles) return sym_open((const char *)a1, a2);
		break;
	case SYS_openat:
		if (nfiles) return sym_open((const char *)a2, a3);
		break;
	case SYS_stat:
	case SYS_lstat: {
		struct sym_file *file = nfiles ? lookup((const char *)a1) : 0;
		if (file) return file_stat((struct kstat *)a2, file);
		break;
	}
	case SYS_newfstatat: {
		if ((a4 & AT_EMPTY_PATH) && !*(const char *)a2) return __penumbra_syscall(SYS_fstat, a1, a3, 0, 0, 0, 0);
		struct sym_file *file = nfiles ? lookup((const char *)a2) : 0;
		if (file) return file_stat((struct kstat *)a3, file);
		break;
	}
	case SYS_access:
	case SYS_faccessat:
	case SYS_faccessat2: {
		const char *path = (const char *)(n == SYS_access ? a1 : a2);
		long mode = n == SYS_access ? a2 : a3;
		struct sym_file *file = nfiles ? lookup(path) : 0;
		if (file) return (mode & W_OK) && !file->directory ? -EACCES : 0;
		break;
	}
	case SYS_fstat:
		if ((f = open_file(a1))) return file_stat((struct kstat *)a2, f->file);
		return std_fstat(a1, (struct kstat *)a2);
	case SYS_read:
		if ((f = open_file(a1))) {
			long k = sym_read(f, (unsigned char *)a2, a3, f->pos);
			if (k > 0) f->pos += k;
			return k;
		}
		break;
	case SYS_pread64:
		if ((f = open_file(a1))) {
			if (!seeks(f->file)) return -ESPIPE;
			return sym_read(f, (unsigned char *)a2, a3, a4);
		}
		break;
	case SYS_readv:
		if ((f = open_file(a1))) return sym_readv(f, (const struct iovec *)a2, a3);
		break;
	case SYS_getdents64:
		if ((f = open_file(a1))) {
			if (f->file == &cwd) return sym_getdents64(f, (unsigned char *)a2, a3);
			if (!f->file->directory) return -ENOTDIR;
		}
		break;
	case SYS_lseek:
		if ((f = open_file(a1))) return sym_lseek(f, a2, a3);
		break;
	case SYS_close:
		if ((f = open_file(a1))) {
			f->file = 0;
			return 0;
		}
		break;
	case SYS_fcntl:
		if ((f = open_file(a1))) return sym_fcntl(a1, f, a2, a3);
		break;
	case SYS_write:
	case SYS_writev:
		if (open_file(a1)) return -EBADF;
		break;
	case SYS_ioctl:
		if ((f = open_file(a1))) return file_ioctl(file_kind(f->file), a2, a3);
		break;
	case SYS_fadvise64:
		if ((f = open_file(a1))) return seeks(f->file) ? 0 : -ESPIPE;
		break;
	}
	return __penumbra_kernel(n, a1, a2, a3, a4, a5, a6);
}
