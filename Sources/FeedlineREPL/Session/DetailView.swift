import Feedline

/// What the REPL has shown of the open post: the parts printed last, so after a change only the
/// parts whose text changed are printed again.
struct DetailView {
    private(set) var state: PostDetailState?
    private var printed: [DetailRenderer.Part: [String]] = [:]
    /// The state the last flush or redraw drew.
    private var flushed: PostDetailState?

    /// Takes in the detail's latest state.
    mutating func receive(_ state: PostDetailState) {
        self.state = state
    }

    /// The parts whose lines changed since the last flush (all of them the first time).
    mutating func flush(_ renderer: DetailRenderer) -> [String] {
        guard let state else { return [] }
        var lines: [String] = []
        defer { flushed = state }
        for part in DetailRenderer.Part.allCases {
            // The post and the thread are the long parts: skip them while their input is unchanged.
            if let flushed, printed[part] != nil {
                if part == .post, flushed.post == state.post { continue }
                if part == .thread, flushed.context == state.context { continue }
            }
            let drawn = renderer.lines(part, of: state)
            if drawn != (printed[part] ?? []) { lines += drawn }
            printed[part] = drawn
        }
        return lines
    }

    /// The whole screen (the `list` command).
    mutating func redraw(_ renderer: DetailRenderer) -> [String] {
        guard let state else { return [] }
        printed = renderer.parts(state)
        flushed = state
        return renderer.lines(state)
    }
}
