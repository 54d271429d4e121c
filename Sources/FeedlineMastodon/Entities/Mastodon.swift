/// The wire format of Mastodon's REST API, as Mastodon and compatible servers (GoToSocial,
/// Pleroma, Akkoma) send it.
///
/// The entities decode tolerantly: unknown keys are ignored, optional fields may be absent or
/// `null`, ids are opaque strings (a JSON integer id is accepted and kept as its decimal text).
/// Decode them with a decoder from ``makeDecoder()`` (or with ``decode(_:from:)``), which reads
/// the date formats these servers use.
public enum Mastodon {}
