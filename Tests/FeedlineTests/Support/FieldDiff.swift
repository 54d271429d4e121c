import Feedline

/// The fields of two values that differ, one line each, as `path: expected …, got …`.
///
/// Derived with `Mirror`, so every stored field is compared — a field added later is never
/// left out. Structs are compared field by field (nested ones too: `waitingRows.requestMark`);
/// ordered collections by their elements' ids (`Identifiable`), then element by element
/// (`rows[3].…`); enums by case, then payload; sets and dictionaries as a whole, sorted. Values
/// that describe themselves (`CustomStringConvertible`) or have no fields are leaves.
///
/// Never empty when the values differ: a difference no field shows (a custom `==`) is reported
/// for the whole value.
func fieldDiff<Value>(_ expected: Value, _ actual: Value) -> String {
    var lines: [String] = []
    differences(expected, actual, at: "", into: &lines)
    if lines.isEmpty, !same(expected, actual) {
        lines.append("  (no field differs, the values do): expected \(expected), got \(actual)")
    }
    return lines.joined(separator: "\n")
}

/// Appends the differences between `expected` and `actual` at `path` to `lines`.
private func differences(_ expected: Any, _ actual: Any, at path: String, into lines: inout [String]) {
    if same(expected, actual) { return }
    let count = lines.count
    defer {
        // Whatever made them differ, say so for the whole value when nothing below did.
        if lines.count == count { lines.append("  \(name(path)): expected \(summary(expected)), got \(summary(actual))") }
    }
    if let left = orderedElements(expected), let right = orderedElements(actual) {
        let leftIDs = left.map(identity)
        let rightIDs = right.map(identity)
        if leftIDs != rightIDs { lines.append("  \(name(path)): expected \(leftIDs), got \(rightIDs)") }
        for index in 0..<min(left.count, right.count) {
            differences(left[index], right[index], at: "\(path)[\(index)]", into: &lines)
        }
        return
    }
    let mirror = Mirror(reflecting: expected)
    let other = Mirror(reflecting: actual)
    guard mirror.displayStyle == other.displayStyle else { return }
    switch mirror.displayStyle {
    case .struct?, .class?, .tuple?:
        guard !(expected is any CustomStringConvertible) else { return }
        let right = Array(other.children)
        for (index, child) in mirror.children.enumerated() where index < right.count {
            differences(child.value, right[index].value, at: path + "." + (child.label ?? "\(index)"), into: &lines)
        }
    case .optional?:
        // Both set: the wrapped values' differences, under the same name.
        guard let left = mirror.children.first, let right = other.children.first else { return }
        differences(left.value, right.value, at: path, into: &lines)
    case .enum?:
        // The same case with a payload too long for one line: the payload's differences.
        guard !(expected is any CustomStringConvertible), let left = mirror.children.first, let right = other.children.first,
            left.label == right.label, "\(expected)".count + "\(actual)".count > 160
        else { return }
        differences(left.value, right.value, at: path + "." + (left.label ?? "payload"), into: &lines)
    default:
        return
    }
}

/// Whether two values are equal: by `==` when they are `Equatable`, else by their full
/// descriptions.
private func same(_ expected: Any, _ actual: Any) -> Bool {
    isEqual(expected, actual) ?? (String(reflecting: expected) == String(reflecting: actual))
}

/// `expected == actual` when the value is `Equatable` (`nil` when it is not).
private func isEqual(_ expected: Any, _ actual: Any) -> Bool? {
    guard let expected = expected as? any Equatable else { return nil }
    return equals(expected, actual)
}

private func equals<T: Equatable>(_ expected: T, _ actual: Any) -> Bool {
    (actual as? T) == expected
}

/// The elements of an ordered collection (not a string, set or dictionary), or `nil`.
private func orderedElements(_ value: Any) -> [Any]? {
    guard !(value is any StringProtocol), let collection = value as? any Collection else { return nil }
    switch Mirror(reflecting: value).displayStyle {
    case .set?, .dictionary?: return nil
    default: return elements(of: collection)
    }
}

private func elements<C: Collection>(of collection: C) -> [Any] {
    collection.map { $0 as Any }
}

/// An element as a list names it: its id when it has one.
private func identity(_ element: Any) -> String {
    if let element = element as? any Identifiable { return id(of: element) }
    return "\(element)"
}

private func id<T: Identifiable>(of element: T) -> String { "\(element.id)" }

/// A value on one line: collections by their elements' ids, sets and dictionaries sorted.
private func summary(_ value: Any) -> String {
    if let elements = orderedElements(value) { return "\(elements.map(identity))" }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .set?: return "[" + mirror.children.map { "\($0.value)" }.sorted().joined(separator: ", ") + "]"
    case .dictionary?:
        let pairs = mirror.children.map { pair -> String in
            let parts = Array(Mirror(reflecting: pair.value).children)
            return parts.count == 2 ? "\(parts[0].value): \(parts[1].value)" : "\(pair.value)"
        }
        return "[" + pairs.sorted().joined(separator: ", ") + "]"
    default: return "\(value)"
    }
}

/// A path as the diff prints it: without its leading dot; the whole value when empty.
private func name(_ path: String) -> String {
    path.isEmpty ? "(whole value)" : path.hasPrefix(".") ? String(path.dropFirst()) : path
}
