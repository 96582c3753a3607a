import CaptureCore

/// One chapter of a file as libavformat lists it (`AVFormatContext.chapters`): the
/// QuickTime chapter track or 'chpl' box of an MP4, Matroska's chapters, and so on.
package struct MovieChapter: Sendable, Equatable {
    /// Where the chapter starts and how long it lasts.
    package var start: CMTime
    package var duration: CMTime
    /// The chapter's "title" tag; nil without one.
    package var title: String?
    /// The chapter's "language" tag (ISO 639-2); nil without one.
    package var language: String?

    package init(start: CMTime, duration: CMTime, title: String?, language: String?) {
        self.start = start
        self.duration = duration
        self.title = title
        self.language = language
    }
}
