//! Number formatting for people.

/// 1234567 -> "1,234,567".
pub fn group_digits(value: u64) -> String {
    let digits = value.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

/// Bytes as KiB/MiB/GiB with two decimals.
pub fn bytes(value: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut size = value as f64;
    let mut unit = 0;
    while size >= 1024.0 && unit + 1 < units.len() {
        size /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{value} B")
    } else {
        format!("{size:.2} {}", units[unit])
    }
}

/// A rate with an SI prefix: 12345678.0 -> "12.35 M".
pub fn si(value: f64) -> String {
    let prefixes = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")];
    for (scale, prefix) in prefixes {
        if value >= scale {
            return format!("{:.2} {prefix}", value / scale);
        }
    }
    format!("{value:.0} ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1000), "1,000");
        assert_eq!(group_digits(479001600), "479,001,600");
        assert_eq!(bytes(512), "512 B");
        assert_eq!(bytes(119750400), "114.20 MiB");
        assert_eq!(si(12_345_678.0), "12.35 M");
    }
}
