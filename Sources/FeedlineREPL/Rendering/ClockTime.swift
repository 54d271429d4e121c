/// A time of day as the REPL shows it: `09:05`.
package enum ClockTime {
    /// `hour` and `minute` with two digits each, as `String(format: "%02d:%02d", …)` wrote them
    /// (not that: its first use looked up C-variadic conformances at run time, at a post
    /// screen's first draw).
    package static func text(hour: Int, minute: Int) -> String {
        twoDigits(hour) + ":" + twoDigits(minute)
    }

    /// `7` as `07`; any other number as itself (`%02d` pads to two characters only).
    private static func twoDigits(_ number: Int) -> String {
        (0...9).contains(number) ? "0\(number)" : "\(number)"
    }
}
