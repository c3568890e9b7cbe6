//! The Lua state's allocator: it enforces the memory limit and notes where a script hit it.
//!
//! Lua raises a memory error with no position and without calling any message handler, and the
//! budget hook's last line is only as good as its last check: one `..` of big strings asks for all
//! its memory at once, between two checks, so the hook's line can be another one. So the host
//! installs this allocator in place of mlua's (after mlua has been told that there is a limit, so
//! that it protects its own allocations); when it refuses a request it notes the script line
//! running on the main thread at that moment, and the error names it.
//!
//! This is the workspace's only unsafe code. Blocks are allocated exactly as mlua's allocator
//! does (the global allocator, mlua's alignment), so blocks from before the switch, and the frees
//! after mlua's allocator is put back, match. The call stack is read with `lua_getstack` and
//! `lua_getinfo("Sl")`, which neither allocate nor touch the value stack, and only when the
//! frames are consistent: while Lua reallocates a thread's value stack its frames hold offsets
//! instead of pointers, so a refused *reallocation* is inspected only when it is larger than any
//! value stack can be. Fresh allocations (strings, tables, closures, a buffer's first block) are
//! always safe to inspect. A refusal that cannot be inspected leaves no place, and the error falls
//! back to the hook's last line.

use mlua::ffi;
use std::alloc::Layout;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::ffi::{c_int, c_void, CStr};
use std::rc::Rc;

/// No value stack is this large (Lua's limit is a million slots of 16 bytes, about 16 MiB), so a
/// refused reallocation above it is never a value stack growing.
const LARGER_THAN_ANY_STACK: usize = 32 << 20;

/// How many frames to look through for a script line (sandbox wrappers and C functions are
/// skipped: the innermost frame of a script file is the one to blame).
const MAX_FRAMES: c_int = 64;

/// The allocator's state, reached through Lua's user-data pointer for it.
struct Heap {
    limit: usize,
    used: Cell<usize>,
    main: *mut ffi::lua_State,
    /// Script file and line of the last refused request (cleared when its retry succeeds).
    place: RefCell<Option<(String, usize)>>,
    /// The last refused request: Lua retries the same request after an emergency collection.
    refused: Cell<(usize, usize, usize)>,
    /// The current call's budget used so far (the host's counter): a large block is charged to
    /// it when it is allocated (see [`CHARGED_FROM`]).
    budget_used: Rc<Cell<u64>>,
    /// Live strings of [`COMPARED_FROM`] bytes or more: block address → size.
    strings: RefCell<HashMap<usize, usize>>,
    /// The size of the largest of them (0 when there is none), read by the budget hook.
    longest: Rc<Cell<usize>>,
    /// Whether the last refusal was a string longer than [`LONGEST_STRING`].
    string_too_long: Cell<bool>,
}

/// The kind Lua gives a fresh string's block (in `osize`, with a null `ptr`): `LUA_TSTRING`.
const STRING_KIND: usize = 4;

/// The longest string a script may build, in bytes. Comparing two strings (`<`, `<=`, `==` of
/// two of one length) reads them in C within one VM instruction, which neither the count hook
/// nor this allocator sees; with strings this short at most, a thousand instructions between two
/// budget checks compare at most 16 GiB, and the charge below stops the call at that check.
pub(crate) const LONGEST_STRING: usize = 16 << 20;

/// Strings of this many bytes or more make every instruction dearer while they live: the
/// budget hook charges each instruction one unit per [`BYTES_COMPARED_PER_UNIT`] bytes of the
/// longest of them, what comparing it would cost (a script holding a 1 MiB string runs about
/// twelve thousand instructions a call). A thousand comparisons of shorter strings take at most
/// a tenth of a second, and the wall clock stops a loop of them.
pub(crate) const COMPARED_FROM: usize = 1 << 20;

/// See [`COMPARED_FROM`]: bytes compared for one unit of the budget.
pub(crate) const BYTES_COMPARED_PER_UNIT: usize = 64;

/// The room Lua's string header takes in a string's block, above its bytes (the header up to
/// its contents and the closing NUL: 25 bytes in Lua 5.4 on 64-bit machines).
const STRING_HEADER: usize = 25;

/// Blocks of this many bytes or more are charged to the call's instruction budget, one unit per
/// [`BYTES_PER_UNIT`] bytes: building them (one `..` of two big strings, a C function filling a
/// buffer) is native work of one instruction, which the count hook would never see. Smaller
/// blocks are what ordinary code allocates, and its instructions are counted already.
pub(crate) const CHARGED_FROM: usize = 4096;

/// See [`CHARGED_FROM`]: about the cost of writing that many bytes, next to one instruction.
pub(crate) const BYTES_PER_UNIT: usize = 16;

/// The installed allocator; mlua's is put back when this is dropped.
pub(crate) struct LimitedHeap {
    heap: *mut Heap,
    main: *mut ffi::lua_State,
    mlua_alloc: ffi::lua_Alloc,
    mlua_ud: *mut c_void,
}

impl LimitedHeap {
    /// Installs the allocator on `lua` with a limit of `limit` bytes in all, charging large
    /// blocks to `budget_used`.
    pub(crate) fn install(
        lua: &mlua::Lua,
        limit: usize,
        budget_used: Rc<Cell<u64>>,
    ) -> mlua::Result<LimitedHeap> {
        // mlua protects its own allocations from Rust only when it knows of a limit
        lua.set_memory_limit(limit)?;
        let mut main: *mut ffi::lua_State = std::ptr::null_mut();
        // SAFETY: the closure runs on `lua`'s state inside a protected call; it reads the
        // registry's main-thread slot and pops what it pushed.
        unsafe {
            lua.exec_raw::<()>((), |state| {
                ffi::lua_rawgeti(state, ffi::LUA_REGISTRYINDEX, ffi::LUA_RIDX_MAINTHREAD);
                main = ffi::lua_tothread(state, -1);
                ffi::lua_pop(state, 1);
            })?;
        }
        if main.is_null() {
            return Err(mlua::Error::runtime("the Lua state has no main thread"));
        }
        let heap = Box::into_raw(Box::new(Heap {
            limit,
            used: Cell::new(lua.used_memory()),
            main,
            place: RefCell::new(None),
            refused: Cell::new((0, 0, 0)),
            budget_used,
            strings: RefCell::new(HashMap::new()),
            longest: Rc::new(Cell::new(0)),
            string_too_long: Cell::new(false),
        }));
        let mut mlua_ud: *mut c_void = std::ptr::null_mut();
        // SAFETY: `main` is a live state of `lua` (the allocator is the whole state's). Nothing
        // runs between counting mlua's memory and the switch, and `heap` stays allocated until
        // `Drop` has put mlua's allocator back.
        let mlua_alloc = unsafe {
            let mlua_alloc = ffi::lua_getallocf(main, &mut mlua_ud);
            ffi::lua_setallocf(main, allocate, heap as *mut c_void);
            mlua_alloc
        };
        Ok(LimitedHeap {
            heap,
            main,
            mlua_alloc,
            mlua_ud,
        })
    }

    fn heap(&self) -> &Heap {
        // SAFETY: the heap lives as long as `self`; the allocator runs on this thread only.
        unsafe { &*self.heap }
    }

    /// Forgets the place of an earlier refusal (at the start of a call from the engine).
    pub(crate) fn clear(&self) {
        let heap = self.heap();
        if let Ok(mut p) = heap.place.try_borrow_mut() {
            *p = None;
        }
        heap.refused.set((0, 0, 0));
        heap.string_too_long.set(false);
    }

    /// The size of the longest live string of [`COMPARED_FROM`] bytes or more (0 if none).
    pub(crate) fn longest_string(&self) -> Rc<Cell<usize>> {
        self.heap().longest.clone()
    }

    /// Whether the last refusal was a string over [`LONGEST_STRING`] (cleared by [`Self::clear`]).
    pub(crate) fn refused_a_long_string(&self) -> bool {
        self.heap().string_too_long.get()
    }

    /// The script file and line where memory was last refused, if it could be told.
    pub(crate) fn take_place(&self) -> Option<(String, usize)> {
        self.heap().place.try_borrow_mut().ok()?.take()
    }
}

impl Drop for LimitedHeap {
    fn drop(&mut self) {
        // SAFETY: mlua's allocator goes back before the heap is freed, so the Lua state (which
        // may outlive the host through handles, and is closed by mlua) never calls freed memory.
        // Its blocks are compatible (same allocator and alignment); mlua's own count is stale
        // from here on, which only loosens the limit of a state that runs no more rule code.
        unsafe {
            ffi::lua_setallocf(self.main, self.mlua_alloc, self.mlua_ud);
            drop(Box::from_raw(self.heap));
        }
    }
}

/// The allocator Lua calls (the `lua_Alloc` contract: `nsize == 0` frees, a null `ptr` allocates
/// fresh with `osize` holding the kind of object, else reallocates).
unsafe extern "C" fn allocate(
    ud: *mut c_void,
    ptr: *mut c_void,
    osize: usize,
    nsize: usize,
) -> *mut c_void {
    // SAFETY: `ud` is the `Heap` installed with this function, alive until uninstalled.
    let heap = unsafe { &*(ud as *const Heap) };
    let held = if ptr.is_null() { 0 } else { osize };
    if held >= COMPARED_FROM {
        forget_string(heap, ptr);
    }
    if nsize == 0 {
        if !ptr.is_null() {
            // SAFETY: `ptr` was allocated by this allocator or mlua's with this layout.
            unsafe {
                std::alloc::dealloc(
                    ptr as *mut u8,
                    Layout::from_size_align_unchecked(osize, ffi::SYS_MIN_ALIGN),
                )
            };
            heap.used.set(heap.used.get().saturating_sub(osize));
        }
        return std::ptr::null_mut();
    }
    let used = heap.used.get().saturating_sub(held);
    let string = ptr.is_null() && osize == STRING_KIND;
    if nsize > isize::MAX as usize || used.saturating_add(nsize) > heap.limit {
        refused(heap, ptr, osize, nsize);
        return std::ptr::null_mut();
    }
    if string && nsize > LONGEST_STRING + STRING_HEADER {
        refused(heap, ptr, osize, nsize);
        heap.string_too_long.set(true);
        return std::ptr::null_mut();
    }
    let Ok(layout) = Layout::from_size_align(nsize, ffi::SYS_MIN_ALIGN) else {
        return std::ptr::null_mut();
    };
    let block = if ptr.is_null() {
        // SAFETY: `layout` has a non-zero size.
        unsafe { std::alloc::alloc(layout) }
    } else {
        // SAFETY: `ptr` is a live block of `osize` bytes with this alignment.
        unsafe {
            std::alloc::realloc(
                ptr as *mut u8,
                Layout::from_size_align_unchecked(osize, ffi::SYS_MIN_ALIGN),
                nsize,
            )
        }
    };
    if block.is_null() {
        // the machine itself is out of memory: what mlua does too
        std::alloc::handle_alloc_error(layout);
    }
    heap.used.set(used + nsize);
    if string && nsize >= COMPARED_FROM + STRING_HEADER {
        if let Ok(mut strings) = heap.strings.try_borrow_mut() {
            strings.insert(block as usize, nsize);
            heap.longest.set(heap.longest.get().max(nsize));
        }
    }
    if nsize >= CHARGED_FROM && nsize > held {
        // the hook raises at its next check once the budget is gone
        let used = heap.budget_used.get();
        heap.budget_used
            .set(used.saturating_add((nsize / BYTES_PER_UNIT) as u64));
    }
    if heap.refused.get() == (ptr as usize, osize, nsize) {
        // the retry after an emergency collection worked: nothing ran out after all
        heap.refused.set((0, 0, 0));
        if let Ok(mut p) = heap.place.try_borrow_mut() {
            *p = None;
        }
    }
    block as *mut c_void
}

/// Stops tracking a string's block (freed, or reused by Lua) and finds the longest left.
fn forget_string(heap: &Heap, ptr: *mut c_void) {
    let Ok(mut strings) = heap.strings.try_borrow_mut() else {
        return;
    };
    if let Some(size) = strings.remove(&(ptr as usize)) {
        if size >= heap.longest.get() {
            heap.longest
                .set(strings.values().copied().max().unwrap_or(0));
        }
    }
}

/// Notes where a refused request came from, when the call frames can be read.
fn refused(heap: &Heap, ptr: *mut c_void, osize: usize, nsize: usize) {
    let place = if ptr.is_null() || nsize > LARGER_THAN_ANY_STACK {
        // SAFETY: not a value-stack reallocation (see the module's comment).
        unsafe { script_line(heap.main) }
    } else {
        None
    };
    if let Ok(mut p) = heap.place.try_borrow_mut() {
        *p = place;
    }
    heap.refused.set((ptr as usize, osize, nsize));
}

/// The innermost frame of a script file on the main thread's call stack: its path and line.
///
/// # Safety
/// `main` is a live state whose call frames are consistent (not in a value-stack reallocation).
unsafe fn script_line(main: *mut ffi::lua_State) -> Option<(String, usize)> {
    // SAFETY: lua_Debug is plain C data; zero is a valid start for lua_getstack to fill.
    let mut ar: ffi::lua_Debug = unsafe { std::mem::zeroed() };
    for level in 0..MAX_FRAMES {
        // SAFETY: both calls only read the frames (no allocation, no value-stack access).
        unsafe {
            if ffi::lua_getstack(main, level, &mut ar) == 0 {
                return None;
            }
            if ffi::lua_getinfo(main, c"Sl".as_ptr(), &mut ar) == 0 || ar.source.is_null() {
                continue;
            }
        }
        // SAFETY: `source` points at the function's NUL-terminated chunk name.
        let source = unsafe { CStr::from_ptr(ar.source) }.to_bytes();
        // only a script file's line locates an error for people (never the sandbox's chunks)
        if let (Some(path), Ok(line)) = (source.strip_prefix(b"@"), usize::try_from(ar.currentline))
        {
            if line > 0 {
                return Some((String::from_utf8_lossy(path).into_owned(), line));
            }
        }
    }
    None
}
