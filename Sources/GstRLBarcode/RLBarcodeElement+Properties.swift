import CGStreamer
import RLBarcode

// Properties and action signals: application threads, touching only the
// settings (behind their mutex).
extension RLBarcodeElement {
    /// Applies a property value from `g_object_set_property`. Invalid values
    /// are refused with a warning; the old value stays.
    func setProperty(_ property: Property, _ value: UnsafePointer<GValue>) {
        if let flag = property.flag {
            update(property, flag, g_value_get_boolean(value) != 0) { "\($0)" }
            return
        }
        switch property {
        case .symbologies:
            let raw = UInt32(truncatingIfNeeded: g_value_get_flags(value))
            guard raw & ~Symbology.all.rawValue == 0 else {
                warn("symbologies: unknown flag bits 0x\(String(raw, radix: 16)); keeping the old value")
                return
            }
            update(property, \.symbologies, Symbology(rawValue: raw)) { describe($0) }
        case .activeRegion:
            setActiveRegion(g_value_get_string(value).map { String(cString: $0) } ?? "")
        case .orientation: update(property, \.orientation, value, Orientation.init(rawValue:)) { $0.nick }
        case .effort: update(property, \.effort, value, Effort.init(rawValue:)) { $0.nick }
        case .report: update(property, \.report, value, ReportMode.init(rawValue:)) { $0.nick }
        case .lostAfter: update(property, \.lostAfter, UInt64(g_value_get_uint64(value))) { "\($0) ns" }
        case .frameMaxSize: update(property, \.frameMaxSize, Int(g_value_get_uint(value))) { "\($0)" }
        case .outlineColor: update(property, \.outlineColor, UInt32(g_value_get_uint(value))) { hex($0) }
        case .unwantedColor: update(property, \.unwantedColor, UInt32(g_value_get_uint(value))) { hex($0) }
        case .nThreads: update(property, \.threads, Int(g_value_get_uint(value))) { "\($0)" }
        case .analysisThreads:
            let n = Int(g_value_get_uint(value))
            update(property, \.analysisThreads, n) { "\($0)" }
            AnalysisPool.shared.resize(n == 0 ? AnalysisPool.defaultSize : n)
        case .regionOnly, .message, .attachMeta, .attachFrame, .frameClean, .draw, .drawLabels, .paused,
            .framesAnalysed, .framesSkipped, .framesRejected:
            return
        }
    }

    /// Fills `value` for `g_object_get_property`.
    func getProperty(_ property: Property, _ value: UnsafeMutablePointer<GValue>) {
        let s = settings.withLock { $0 }
        if let flag = property.flag {
            g_value_set_boolean(value, s[keyPath: flag] ? 1 : 0)
            return
        }
        switch property {
        case .symbologies: g_value_set_flags(value, guint(s.symbologies.rawValue))
        case .activeRegion: g_value_set_string(value, s.activeRegionText)
        case .orientation: g_value_set_enum(value, gint(s.orientation.rawValue))
        case .effort: g_value_set_enum(value, gint(s.effort.rawValue))
        case .report: g_value_set_enum(value, gint(s.report.rawValue))
        case .lostAfter: g_value_set_uint64(value, UInt(s.lostAfter))
        case .frameMaxSize: g_value_set_uint(value, guint(s.frameMaxSize))
        case .outlineColor: g_value_set_uint(value, s.outlineColor)
        case .unwantedColor: g_value_set_uint(value, s.unwantedColor)
        case .nThreads: g_value_set_uint(value, guint(s.threads))
        case .analysisThreads: g_value_set_uint(value, guint(s.analysisThreads))
        case .framesAnalysed: g_value_set_uint64(value, UInt(counters.analysed.load(ordering: .relaxed)))
        case .framesSkipped: g_value_set_uint64(value, UInt(counters.skipped.load(ordering: .relaxed)))
        case .framesRejected: g_value_set_uint64(value, UInt(counters.rejected.load(ordering: .relaxed)))
        case .regionOnly, .message, .attachMeta, .attachFrame, .frameClean, .draw, .drawLabels, .paused:
            return
        }
    }

    /// `active-region`: the text as typed and its parsed rectangle.
    private func setActiveRegion(_ text: String) {
        switch NormalizedRect.parse(text) {
        case .success(let rect):
            let new = rect == nil ? "" : text
            let old = settings.withLock { s -> String in
                let old = s.activeRegionText
                s.activeRegionText = new
                s.activeRegion = rect
                return old
            }
            log(GST_LEVEL_DEBUG, instance, "active-region: \"\(old)\" -> \"\(new)\"")
            if old != new { notify(.activeRegion) }
        case .failure(let error):
            warn("active-region: \(error.message); keeping the old value")
        }
    }

    /// Stores a new value and logs old -> new at debug level.
    private func update<T: Equatable & Sendable>(
        _ property: Property, _ keyPath: WritableKeyPath<Settings, T>,
        _ new: T, _ text: (T) -> String
    ) {
        let old = settings.withLock { s -> T in
            let old = s[keyPath: keyPath]
            s[keyPath: keyPath] = new
            return old
        }
        log(GST_LEVEL_DEBUG, instance, "\(property.name): \(text(old)) -> \(text(new))")
        if old != new { notify(property) }
    }

    /// Stores an enum property's value, refusing one that `make` does not know.
    private func update<T: Equatable & Sendable>(
        _ property: Property, _ keyPath: WritableKeyPath<Settings, T>,
        _ value: UnsafePointer<GValue>, _ make: (Int) -> T?, _ text: (T) -> String
    ) {
        let raw = g_value_get_enum(value)
        guard let new = make(Int(raw)) else {
            warn("\(property.name): invalid value \(raw); keeping the old value")
            return
        }
        update(property, keyPath, new, text)
    }

    /// Emits `notify::<property>` (properties use explicit notification, so
    /// refused or unchanged values stay silent).
    private func notify(_ property: Property) {
        g_object_notify(instance.assumingMemoryBound(to: GObject.self), property.name)
    }

    /// A symbology set as users type it (`ean-13+qr-code`, `all`).
    private func describe(_ s: Symbology) -> String {
        if s == .all { return "all" }
        let nicks = s.members.compactMap(\.nick)
        return nicks.isEmpty ? "(none)" : nicks.joined(separator: "+")
    }

    /// A colour as `0xAARRGGBB`.
    private func hex(_ x: UInt32) -> String {
        let digits = String(x, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    // MARK: Action signals

    /// `clear-results`: forget the session; every code is new again and no
    /// code stays marked with `report-unwanted`.
    func clearResults() {
        let generation = settings.withLock { s -> UInt64 in
            s.unwanted.removeAll()
            s.clearGeneration &+= 1
            return s.clearGeneration
        }
        log(GST_LEVEL_DEBUG, instance, "clear-results (generation \(generation))")
    }

    /// `report-unwanted`: stop reporting the code with this symbology and
    /// text, and draw it crossed out in `unwanted-color`.
    func reportUnwanted(symbology: String?, text: String?) {
        guard let symbology, let text else {
            warn("report-unwanted: symbology and text are required"); return
        }
        guard let set = Symbology(parsing: symbology), set.members.count == 1 else {
            warn("report-unwanted: \"\(symbology)\" does not name one symbology"); return
        }
        let code = UnwantedCode(symbology: set, text: text)
        settings.withLock { _ = $0.unwanted.insert(code) }
        log(GST_LEVEL_DEBUG, instance, "report-unwanted: \(set.name ?? symbology) \"\(text)\"")
    }
}
