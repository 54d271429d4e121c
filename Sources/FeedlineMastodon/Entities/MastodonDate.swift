import Feedline
import Foundation

extension Mastodon {
    /// The date formats Mastodon-compatible servers send, read and written without `DateFormatter`.
    ///
    /// Reading accepts `2026-11-20T09:15:02.000Z`, the same without fractional seconds or with
    /// any number of fraction digits, a numeric offset (`+01:00`, `+0100`, `+01`) instead of `Z`
    /// (no zone means UTC), a space instead of `T`, and a bare calendar date `2026-11-20`
    /// (midnight UTC), as Mastodon sends for `last_status_at`.
    public enum DateFormat {
        /// The instant `text` names, or `nil` when it is not one of the accepted forms or names
        /// an impossible date (month 13, February 30, hour 25 …).
        ///
        /// - Complexity: O(n) in the length of `text`.
        public static func date(from text: String) -> Date? {
            var scanner = Scanner(Array(text.utf8))
            return scanner.parse()
        }

        /// `date` as Mastodon writes `created_at`: UTC with milliseconds, `2026-11-20T09:15:02.000Z`.
        public static func timestamp(_ date: Date) -> String {
            let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
            let (seconds, milliseconds) = floorDivide(totalMilliseconds, 1000)
            let (days, secondOfDay) = floorDivide(seconds, 86_400)
            let (year, month, day) = CivilTime.civil(fromDays: days)
            return String(
                format: "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%03lldZ",
                year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60, milliseconds
            )
        }

        /// The UTC calendar day of `date` as Mastodon writes `last_status_at`: `2026-11-20`.
        public static func calendarDay(_ date: Date) -> String {
            let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
            let (year, month, day) = CivilTime.civil(fromDays: floorDivide(seconds, 86_400).quotient)
            return String(format: "%04lld-%02lld-%02lld", year, month, day)
        }

        private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
            let quotient = value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
            return (quotient, value - quotient * divisor)
        }

        /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
        static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
            let shiftedYear = month <= 2 ? year - 1 : year
            let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
            let yearOfEra = shiftedYear - era * 400
            let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            return era * 146_097 + dayOfEra - 719_468
        }

        static func daysInMonth(year: Int64, month: Int64) -> Int64 {
            switch month {
            case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
            case 4, 6, 9, 11: return 30
            default: return 31
            }
        }

        /// A one-pass reader over the bytes of a date.
        private struct Scanner {
            let bytes: [UInt8]
            var index = 0

            init(_ bytes: [UInt8]) { self.bytes = bytes }

            mutating func parse() -> Date? {
                guard let year = digits(4), take(UInt8(ascii: "-")),
                    let month = digits(2), take(UInt8(ascii: "-")),
                    let day = digits(2),
                    (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day)
                else { return nil }
                var seconds = days(year: year, month: month, day: day) * 86_400
                var fraction = 0.0
                if index < bytes.count {
                    guard take(UInt8(ascii: "T")) || take(UInt8(ascii: "t")) || take(UInt8(ascii: " ")),
                        let hour = digits(2), take(UInt8(ascii: ":")), let minute = digits(2),
                        hour < 24, minute < 60
                    else { return nil }
                    var second: Int64 = 0
                    if take(UInt8(ascii: ":")) {
                        guard let value = digits(2), value <= 60 else { return nil }
                        second = value
                        if take(UInt8(ascii: ".")) || take(UInt8(ascii: ",")) {
                            guard let value = fractionDigits() else { return nil }
                            fraction = value
                        }
                    }
                    seconds += hour * 3600 + minute * 60 + second
                    guard let offset = zoneOffset() else { return nil }
                    seconds -= offset
                }
                guard index == bytes.count else { return nil }
                return Date(timeIntervalSince1970: Double(seconds) + fraction)
            }

            /// The zone designator in seconds east of UTC; no designator is UTC.
            private mutating func zoneOffset() -> Int64? {
                if index == bytes.count { return 0 }
                if take(UInt8(ascii: "Z")) || take(UInt8(ascii: "z")) { return 0 }
                let sign: Int64
                if take(UInt8(ascii: "+")) {
                    sign = 1
                } else if take(UInt8(ascii: "-")) {
                    sign = -1
                } else {
                    return nil
                }
                guard let hours = digits(2), hours < 24 else { return nil }
                var minutes: Int64 = 0
                if index < bytes.count {
                    _ = take(UInt8(ascii: ":"))
                    guard let value = digits(2), value < 60 else { return nil }
                    minutes = value
                }
                return sign * (hours * 3600 + minutes * 60)
            }

            private mutating func take(_ byte: UInt8) -> Bool {
                guard index < bytes.count, bytes[index] == byte else { return false }
                index += 1
                return true
            }

            private mutating func digits(_ count: Int) -> Int64? {
                guard index + count <= bytes.count else { return nil }
                var value: Int64 = 0
                for byte in bytes[index..<index + count] {
                    guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                    value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                }
                index += count
                return value
            }

            /// At least one digit; digits past the ninth are read and ignored.
            private mutating func fractionDigits() -> Double? {
                var numerator: Int64 = 0
                var denominator: Int64 = 1
                var count = 0
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                    if count < 9 {
                        numerator = numerator * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
                        denominator *= 10
                    }
                    count += 1
                    index += 1
                }
                return count == 0 ? nil : Double(numerator) / Double(denominator)
            }
        }
    }
}
