//! Address layout, resolution and every access check of the memory model.

use super::*;
use crate::address::{ObjState, FUNC_BASE, HEAP_BASE, MAX_GLOBAL_BYTES, MAX_HEAP_BYTES, MAX_STACK_BYTES, REDZONE};
use crate::error::ErrorKind;
use penumbra_ir::{Func, Global, GlobalData, GlobalInit};

fn module() -> Module {
    let mut m = Module::new("mem.c");
    m.add_global(GlobalData { name: "buf".into(), size: 4, align: 1, constant: false, init: GlobalInit::Zero });
    m
}

fn kind(r: Result<impl std::fmt::Debug, Fault>) -> ErrorKind {
    match r {
        Err(Fault::Error(kind, _)) => kind,
        other => panic!("expected an error, got {other:?}"),
    }
}

fn message(r: Result<impl std::fmt::Debug, Fault>) -> String {
    match r {
        Err(Fault::Error(_, m)) => m,
        other => panic!("expected an error, got {other:?}"),
    }
}

#[test]
fn loads_and_stores_are_little_endian() {
    let module = module();
    let mut mem = Memory::new(&module, AddressSpace::new());
    let id = mem.allocate(Segment::Global, 8, 8, Origin::Global(Global::from_u32(0))).unwrap();
    let p = mem.object(id).base;
    mem.store(p, 4, 0x1122_3344).unwrap();
    assert_eq!(mem.read(p, 4).unwrap(), &[0x44, 0x33, 0x22, 0x11]);
    assert_eq!(mem.load(p + 1, 2).unwrap(), 0x2233);
    mem.store(p, 8, u128::from(u64::MAX)).unwrap();
    mem.store(p + 2, 1, 0).unwrap();
    assert_eq!(mem.load(p, 8).unwrap(), 0xffff_ffff_ff00_ffff);
}

#[test]
fn overflow_and_underflow_name_the_nearest_object() {
    let module = module();
    let mut mem = Memory::new(&module, AddressSpace::new());
    let a = mem.allocate(Segment::Global, 4, 1, Origin::Global(Global::from_u32(0))).unwrap();
    let b = mem.allocate(Segment::Heap, 10, 1, Origin::Heap { line: 7 }).unwrap();
    let pa = mem.object(a).base;
    let pb = mem.object(b).base;
    assert_eq!(message(mem.store(pa + 4, 1, 1)), "out-of-bounds write of 1 byte at offset 4 of global 'buf' (4 bytes)");
    assert_eq!(kind(mem.load(pa + 2, 4)), ErrorKind::OutOfBoundsRead);
    assert_eq!(message(mem.load(pa - 1, 1)), "out-of-bounds read of 1 byte at offset -1 of global 'buf' (4 bytes)");
    assert_eq!(
        message(mem.load(pb + 10 + REDZONE - 1, 1)),
        format!(
            "out-of-bounds read of 1 byte at offset {} of heap object allocated at line 7 (10 bytes)",
            10 + REDZONE - 1
        )
    );
    // Beyond the last object's redzone: no object.
    assert_eq!(kind(mem.load(pb + 10 + REDZONE, 1)), ErrorKind::InvalidPointer);
    assert_eq!(kind(mem.load(HEAP_BASE + 0x1000_0000, 1)), ErrorKind::InvalidPointer);
    // In-bounds edge accesses succeed.
    mem.store(pa + 3, 1, 9).unwrap();
    mem.store(pb, 8, 1).unwrap();
    mem.load(pb + 2, 8).unwrap();
}

#[test]
fn null_page_function_addresses_and_unmapped_regions() {
    let module = module();
    let mut mem = Memory::new(&module, AddressSpace::new());
    assert_eq!(message(mem.load(0, 4)), "read of 4 bytes at address 0x0");
    assert_eq!(kind(mem.store(0xfff, 1, 0)), ErrorKind::NullDereference);
    assert_eq!(kind(mem.load(FUNC_BASE, 1)), ErrorKind::InvalidPointer);
    assert_eq!(kind(mem.load(u64::MAX - 3, 4)), ErrorKind::InvalidPointer);
    // Empty accesses touch nothing, even at NULL.
    assert!(mem.read(0, 0).unwrap().is_empty());
    mem.copy(0, 0, 0).unwrap();
}

#[test]
fn freed_blocks_are_tombstones() {
    let module = module();
    let mut mem = Memory::new(&module, AddressSpace::new());
    let id = mem.allocate(Segment::Heap, 16, 16, Origin::Heap { line: 3 }).unwrap();
    let p = mem.object(id).base;
    mem.store(p, 4, 5).unwrap();
    mem.free(p, 9).unwrap();
    assert_eq!(
        message(mem.load(p, 4)),
        "read of 4 bytes at offset 0 of freed heap object allocated at line 3 and freed at line 9 (16 bytes)"
    );
    assert_eq!(kind(mem.store(p + 20, 1, 0)), ErrorKind::UseAfterFree, "the redzone of a freed block too");
    assert_eq!(kind(mem.free(p, 10)), ErrorKind::DoubleFree);
    // A new block never reuses the address.
    let q = mem.allocate(Segment::Heap, 16, 16, Origin::Heap { line: 4 }).unwrap();
    assert!(mem.object(q).base > p);
    mem.free(0, 1).unwrap();
}

#[test]
fn invalid_frees() {
    let module = module();
    let mut mem = Memory::new(&module, AddressSpace::new());
    let g = mem.allocate(Segment::Global, 4, 1, Origin::Global(Global::from_u32(0))).unwrap();
    let h = mem.allocate(Segment::Heap, 16, 16, Origin::Heap { line: 3 }).unwrap();
    let (pg, ph) = (mem.object(g).base, mem.object(h).base);
    assert_eq!(message(mem.free(pg, 1)), "free of global 'buf' at offset 0, which is not on the heap");
    assert_eq!(
        message(mem.free(ph + 4, 1)),
        "free of a pointer 4 bytes into heap object allocated at line 3 (16 bytes)"
    );
    assert_eq!(kind(mem.free(ph + 16, 1)), ErrorKind::InvalidFree);
    assert_eq!(kind(mem.free(8, 1)), ErrorKind::InvalidFree);
    assert_eq!(kind(mem.free(HEAP_BASE + 0x100_0000, 1)), ErrorKind::InvalidFree);
    mem.free(ph, 1).unwrap();
}

#[test]
fn dead_stack_objects_and_read_only_and_unsupported_globals() {
    let module = module();
    let mut mem = Memory::new(&module, AddressSpace::new());
    let s = mem.allocate(Segment::Stack, 4, 4, Origin::Stack { func: Func::from_u32(0), line: 2 }).unwrap();
    let ro = mem.allocate(Segment::Global, 4, 1, Origin::Global(Global::from_u32(0))).unwrap();
    let un = mem.allocate(Segment::Global, 4, 1, Origin::Global(Global::from_u32(0))).unwrap();
    mem.space.set_state(ro, ObjState::ReadOnly);
    mem.space.set_unsupported(un, "external global 'environ' is not modelled");
    let (ps, pro, pun) = (mem.object(s).base, mem.object(ro).base, mem.object(un).base);
    mem.store(ps, 4, 1).unwrap();
    mem.kill_stack_object(s);
    let m = message(mem.load(ps, 4));
    assert!(m.contains("stack object of returned function"), "{m}");
    assert_eq!(kind(mem.load(ps, 4)), ErrorKind::UseAfterFree);
    assert_eq!(mem.load(pro, 4).unwrap(), 0);
    assert_eq!(message(mem.store(pro, 1, 1)), "write to read-only global 'buf' at offset 0");
    assert_eq!(kind(mem.store(pro, 1, 1)), ErrorKind::InvalidPointer);
    assert_eq!(mem.load(pun, 1), Err(Fault::Unsupported("external global 'environ' is not modelled".into())));
}

#[test]
fn strings_are_scanned_byte_by_byte() {
    let module = module();
    let mut mem = Memory::new(&module, AddressSpace::new());
    let id = mem.allocate(Segment::Global, 4, 1, Origin::Global(Global::from_u32(0))).unwrap();
    let p = mem.object(id).base;
    mem.write(p, 3).unwrap().copy_from_slice(b"ab\0");
    assert_eq!(mem.strlen(p).unwrap(), 2);
    assert_eq!(mem.read_cstr(p + 1).unwrap(), b"b");
    assert_eq!(mem.strnlen(p, 1).unwrap(), 1);
    mem.write(p, 4).unwrap().copy_from_slice(b"abcd");
    assert_eq!(message(mem.strlen(p)), "out-of-bounds read of 1 byte at offset 4 of global 'buf' (4 bytes)");
    assert_eq!(mem.strnlen(p, 4).unwrap(), 4);
    assert_eq!(mem.scan(p, 10, |b| b == b'c').unwrap(), Some(2));
}

#[test]
fn copies_check_source_then_destination() {
    let module = module();
    let mut mem = Memory::new(&module, AddressSpace::new());
    let a = mem.allocate(Segment::Heap, 8, 16, Origin::Heap { line: 1 }).unwrap();
    let b = mem.allocate(Segment::Heap, 4, 16, Origin::Heap { line: 2 }).unwrap();
    let (pa, pb) = (mem.object(a).base, mem.object(b).base);
    mem.write(pa, 8).unwrap().copy_from_slice(b"01234567");
    mem.copy(pb, pa, 4).unwrap();
    assert_eq!(mem.read(pb, 4).unwrap(), b"0123");
    assert_eq!(kind(mem.copy(pb, pa, 8)), ErrorKind::OutOfBoundsWrite);
    assert_eq!(kind(mem.copy(pa, pb, 8)), ErrorKind::OutOfBoundsRead);
    assert_eq!(mem.read(pb, 4).unwrap(), b"0123", "a failed copy writes nothing");
    // Overlapping copies move like memmove.
    mem.copy(pa + 2, pa, 4).unwrap();
    assert_eq!(mem.read(pa, 8).unwrap(), b"01012367");
}

#[test]
fn heap_budget_returns_none() {
    let module = module();
    let mut mem = Memory::new(&module, AddressSpace::new());
    assert!(mem.allocate(Segment::Heap, MAX_HEAP_BYTES + 1, 16, Origin::Heap { line: 1 }).is_none());
    assert!(mem.allocate(Segment::Heap, u64::MAX, 16, Origin::Heap { line: 1 }).is_none());
    assert!(mem.allocate(Segment::Stack, MAX_STACK_BYTES + 1, 16, Origin::Heap { line: 1 }).is_none());
    assert!(mem.allocate(Segment::Global, MAX_GLOBAL_BYTES + 1, 16, Origin::Global(Global::from_u32(0))).is_none());
}
