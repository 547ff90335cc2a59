// 64-bit unsigned integers as vec2<u32>(low, high). Portable WGSL has no
// 64-bit integer type (SHADER_INT64 is an optional feature), and the kernels
// need 64-bit values only for global table addresses, 64-cell masks and the
// multinomial ranks of large spaces: a few adds and compares, cheap to emulate.

fn u64_from(value: u32) -> vec2<u32> {
    return vec2<u32>(value, 0u);
}

fn u64_add(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let low = a.x + b.x;
    return vec2<u32>(low, a.y + b.y + select(0u, 1u, low < a.x));
}

fn u64_sub(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    return vec2<u32>(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x));
}

fn u64_less(a: vec2<u32>, b: vec2<u32>) -> bool {
    return a.y < b.y || (a.y == b.y && a.x < b.x);
}

// Bit `index` (0..64) set.
fn mask64_bit(index: u32) -> vec2<u32> {
    if (index < 32u) {
        return vec2<u32>(1u << index, 0u);
    }
    return vec2<u32>(0u, 1u << (index - 32u));
}

fn mask64_test(mask: vec2<u32>, index: u32) -> bool {
    if (index < 32u) {
        return ((mask.x >> index) & 1u) == 1u;
    }
    return ((mask.y >> (index - 32u)) & 1u) == 1u;
}

// The bits below `count` (0..=64).
fn mask64_low(count: u32) -> vec2<u32> {
    if (count >= 64u) {
        return vec2<u32>(0xffffffffu, 0xffffffffu);
    }
    if (count >= 32u) {
        return vec2<u32>(0xffffffffu, (1u << (count - 32u)) - 1u);
    }
    return vec2<u32>((1u << count) - 1u, 0u);
}

fn mask64_count(mask: vec2<u32>) -> u32 {
    return countOneBits(mask.x) + countOneBits(mask.y);
}

// Index of the lowest set bit; the mask must not be zero.
fn mask64_lowest(mask: vec2<u32>) -> u32 {
    if (mask.x != 0u) {
        return firstTrailingBit(mask.x);
    }
    return 32u + firstTrailingBit(mask.y);
}

// Index of the highest set bit; the mask must not be zero.
fn mask64_highest(mask: vec2<u32>) -> u32 {
    if (mask.y != 0u) {
        return 32u + firstLeadingBit(mask.y);
    }
    return firstLeadingBit(mask.x);
}

// The mask without its lowest set bit.
fn mask64_drop_lowest(mask: vec2<u32>) -> vec2<u32> {
    if (mask.x != 0u) {
        return vec2<u32>(mask.x & (mask.x - 1u), mask.y);
    }
    return vec2<u32>(0u, mask.y & (mask.y - 1u));
}

fn mask64_shift_left_one(mask: vec2<u32>) -> vec2<u32> {
    return vec2<u32>(mask.x << 1u, (mask.y << 1u) | (mask.x >> 31u));
}

fn mask64_shift_right_one(mask: vec2<u32>) -> vec2<u32> {
    return vec2<u32>((mask.x >> 1u) | (mask.y << 31u), mask.y >> 1u);
}
