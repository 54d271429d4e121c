import Foundation

extension TimeZone {
    /// How the REPL names the zone a time is shown in: `UTC` for UTC (and GMT), else the zone's
    /// abbreviation at `date` (`CET`, `CEST`, `GMT+1`), else its identifier — never nothing, so
    /// a time is never shown without its zone.
    func shownName(at date: Date) -> String {
        if identifier == "UTC" || identifier == "GMT" { return "UTC" }
        return abbreviation(for: date) ?? identifier
    }
}
