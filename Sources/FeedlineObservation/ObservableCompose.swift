import Feedline
import Observation

/// A compose view model as an `@Observable` object, for SwiftUI: bind a `TextField` to
/// ``text``, pickers to ``visibility`` and ``language``, a toggle to ``sensitive``, and enable the
/// send button with ``canSend``.
///
/// On the main actor, following the view model's snapshots for as long as it lives:
/// - **One property per value.** Each property is assigned only when its value changed, so a
///   change invalidates only the observers that read that value: typing changes ``text`` and
///   ``charactersLeft`` (and ``problems`` and ``canSend`` when whether it can be sent changes),
///   never ``visibility`` or ``phase``.
/// - **Setters go through the draft.** Setting ``text``, ``contentWarning``, ``visibility``,
///   ``language``, ``sensitive`` or ``poll`` calls ``ComposeViewModel/update(_:)``; the property
///   shows the new value before the setter returns. While the draft is on its way (``phase`` is
///   not ``Submission/Phase/editing``) the draft cannot change: setting does nothing and the
///   property keeps its value. An edit (``editing``) keeps its visibility.
/// - **One draft, every face.** Changes made elsewhere — another face, the session's
///   ``Drafts``, the server's answer — reach these properties in the same way.
@MainActor
@Observable
public final class ObservableCompose {
    /// The view model it follows and drives.
    @ObservationIgnored public let viewModel: ComposeViewModel
    /// The draft's id.
    @ObservationIgnored public let id: DraftID
    /// The post the draft replies to (an original's id), if it is a reply; never changes.
    @ObservationIgnored public let inReplyTo: PostID?
    /// The post the draft edits, if it is an edit of one's own post; never changes.
    @ObservationIgnored public let editing: PostID?

    /// The text as typed. Setting it changes the draft (see the type's description).
    public var text: String {
        get { field(\.text, \.text) }
        set { viewModel.update { $0.text = newValue } }
    }

    /// The content warning; `nil` for none. Setting it changes the draft.
    public var contentWarning: String? {
        get { field(\.contentWarning, \.contentWarning) }
        set { viewModel.update { $0.contentWarning = newValue } }
    }

    /// Who may see the post. Setting it changes the draft — not an edit's, which keeps the post's.
    public var visibility: PostVisibility {
        get { field(\.visibility, \.visibility) }
        set { viewModel.update { $0.visibility = newValue } }
    }

    /// The language (an ISO 639 code); `nil` lets the server guess. Setting it changes the draft.
    public var language: String? {
        get { field(\.language, \.language) }
        set { viewModel.update { $0.language = newValue } }
    }

    /// Whether the media are marked sensitive. Setting it changes the draft.
    public var sensitive: Bool {
        get { field(\.sensitive, \.sensitive) }
        set { viewModel.update { $0.sensitive = newValue } }
    }

    /// The poll to attach; `nil` for none. Setting it changes the draft.
    public var poll: Draft.PollDraft? {
        get { field(\.poll, \.poll) }
        set { viewModel.update { $0.poll = newValue } }
    }

    /// Characters left under the server's limit (negative: over it). Changes with the text and
    /// the content warning; limits loaded after the face was made count from the draft's next change.
    public private(set) var charactersLeft: Int
    /// What stops the draft from being sent, in a fixed order (empty: it can be; always empty
    /// once sent).
    public private(set) var problems: [DraftProblem]
    /// Whether ``send()`` would send it now: being written, with no ``problems``.
    public private(set) var canSend: Bool
    /// Where the draft is: being written, sending, queued, checking or sent.
    public private(set) var phase: Submission.Phase
    /// The server's sentence when it refused the last attempt (the draft is back in
    /// ``Submission/Phase/editing``); `nil` once it is sent again.
    public private(set) var refusal: String?

    /// The draft's fields as last received, behind the settable properties.
    @ObservationIgnored private var draft: Draft
    @ObservationIgnored private var subscription: Subscription?

    /// The draft's field at `path`, read as the observed property `property`.
    private func field<Value>(_ property: KeyPath<ObservableCompose, Value>, _ path: KeyPath<Draft, Value>) -> Value {
        access(keyPath: property)
        return draft[keyPath: path]
    }

    /// An observable face of `viewModel`, with its current values.
    public init(_ viewModel: ComposeViewModel) {
        self.viewModel = viewModel
        let snapshot = viewModel.snapshot
        id = viewModel.id
        inReplyTo = snapshot.draft.inReplyTo
        editing = snapshot.draft.editing
        draft = snapshot.draft
        charactersLeft = snapshot.charactersLeft
        problems = snapshot.problems
        canSend = snapshot.canSend
        phase = snapshot.phase
        refusal = snapshot.refusal
        subscription = viewModel.observe { [weak self] snapshot in self?.receive(snapshot) }
    }

    /// An observable face of draft `id` of `drafts`; `nil` when there is no such draft.
    public convenience init?(_ id: DraftID, in drafts: Drafts) {
        guard let viewModel = ComposeViewModel(id, in: drafts) else { return nil }
        self.init(viewModel)
    }

    /// Sends the draft when it can be sent (see ``Drafts/send(_:)``); returns what stopped it
    /// (empty when it went). ``phase`` has changed when it returns.
    @discardableResult
    public func send() -> [DraftProblem] {
        viewModel.send()
    }

    /// Throws the draft away unless it is on its way; returns whether it did. The face keeps
    /// showing the last values (nothing changes: a front closes its compose screen).
    @discardableResult
    public func discard() -> Bool {
        viewModel.discard()
    }

    /// Assigns each property whose value differs from the snapshot's, one invalidation each.
    private func receive(_ snapshot: ComposeViewModel.Snapshot) {
        let new = snapshot.draft
        if new.text != draft.text { withMutation(keyPath: \.text) { draft.text = new.text } }
        if new.contentWarning != draft.contentWarning { withMutation(keyPath: \.contentWarning) { draft.contentWarning = new.contentWarning } }
        if new.visibility != draft.visibility { withMutation(keyPath: \.visibility) { draft.visibility = new.visibility } }
        if new.language != draft.language { withMutation(keyPath: \.language) { draft.language = new.language } }
        if new.sensitive != draft.sensitive { withMutation(keyPath: \.sensitive) { draft.sensitive = new.sensitive } }
        if new.poll != draft.poll { withMutation(keyPath: \.poll) { draft.poll = new.poll } }
        // The fields no property shows (attachments) follow quietly.
        draft = new
        if snapshot.charactersLeft != charactersLeft { charactersLeft = snapshot.charactersLeft }
        if snapshot.problems != problems { problems = snapshot.problems }
        if snapshot.canSend != canSend { canSend = snapshot.canSend }
        if snapshot.phase != phase { phase = snapshot.phase }
        if snapshot.refusal != refusal { refusal = snapshot.refusal }
    }
}
