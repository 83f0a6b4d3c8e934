namespace Millrace.Parallel.Adaptive;

/// <summary>
/// A Vegas-style concurrency limit, after TCP Vegas and Netflix's concurrency-limits (<c>VegasLimit</c>,
/// <c>Gradient2Limit</c>), and the gate it drives. Decisions are made once per round: as many completions as the
/// limit in slow start, else at least <see cref="MinRoundCompletions"/>. The round's median latency is compared with
/// the no-load latency (the lowest round median since the last probe; a drop of more than a quarter only once the next round confirms it) plus a noise band of twice the rounds' mean
/// deviation (learned, as TCP learns its round-trip variance, from rounds that show no queue). By Little's law the
/// items a round queues beyond that band are <c>limit × (1 − tolerated / latency)</c>; the limit grows while they are
/// fewer than <c>α = 0.75 max(1, log10 limit)</c> (doubling per round in slow start, then by one), holds up to
/// <c>β = 1.5α</c>, and above β (for two rounds in a row, or one beyond 2α) moves to the limit that would leave α
/// queued (<c>limit × tolerated / latency + α</c>), at most halving per round. A service whose latency does not depend on concurrency never shows a queue, so the
/// limit climbs to its maximum; a congested one settles at its knee, or a step past it when its latency is noisy.
/// After every change of the limit the items already in flight end unmeasured, so a round's latency is always that
/// of its own limit: measuring them would make every rise look cheaper than it is, one round late, and the limit
/// would overshoot the knee.
/// <para>
/// The no-load latency is re-probed every <see cref="ProbeRounds"/> rounds, as BBR re-probes its minimum
/// round-trip time: the limit is halved, one round (at least 16 completions) is measured at that concurrency and
/// becomes the new no-load latency, and the limit is restored. Without the probe the baseline could only fall; re-taking it from loaded
/// rounds instead (a long-run average, as the seed did) lets it drift up with the congestion it is meant to
/// detect, and the limit with it.
/// </para>
/// <para>
/// Failures are a separate signal: a round whose failure ratio (timeouts included) rises more than 10 points
/// above the long-run ratio or reaches one half multiplies the limit by <see cref="AdaptiveConcurrencyOptions.BackoffRatio"/>.
/// </para>
/// <para>
/// The gate is a <see cref="SemaphoreSlim"/> whose capacity grows by releasing permits and shrinks by
/// withholding the next returned permits (a debt), so a waiting worker never allocates more than the
/// semaphore itself does.
/// </para>
/// </summary>
internal sealed class AdaptiveConcurrencyLimiter : IDisposable
{
    /// <summary>How many rounds pass between probes of the no-load latency: a probe runs about one short round at half the limit.</summary>
    internal const int ProbeRounds = 100;

    /// <summary>
    /// The fewest completions a round takes its median over, after slow start. Real latencies scatter (a timer wait can
    /// end well before or after its nominal time), and the median of a few items would read that scatter as queueing.
    /// </summary>
    internal const int MinRoundCompletions = 32;

    private const double LongRunWeight = 0.05;
    private const double SmoothingGain = 0.25;
    private const double AlphaScale = 0.75;
    private const double FailureRise = 0.1;
    private const double FailingRound = 0.5;
    private const double SignificantCut = 0.1;
    private const double SuddenDrop = 0.25;

    private readonly AdaptiveConcurrencyOptions _options;
    private readonly int _maxLimit;
    private readonly SemaphoreSlim _permits;
    private readonly Lock _gate = new();
    private readonly Action<int> _onLimitChanged;
    private double _limit;
    private int _capacity;
    private int _debt;
    private int _inFlight;
    private int _peakInFlight;
    private bool _slowStart = true;
    private int _windowCompletions;
    private int _windowFailures;
    private readonly List<long> _windowLatencies = [];
    private double _noLoadLatency;
    private double _lastLatency;
    private double _smoothedLatency;
    private double _latencyDeviation;
    private bool _queuedLastRound;
    private double _longFailureRatio;
    private int _rounds;
    private bool _probing;
    private int _unmeasured;
    private double _limitBeforeProbe;
    private double _limitBeforeCut;
    private double _latencyAtCut;
    private bool _slowStartBeforeCut;
    private double _provenNoise;

    public AdaptiveConcurrencyLimiter(AdaptiveConcurrencyOptions options, int maxLimit, Action<int> onLimitChanged)
    {
        _options = options;
        _maxLimit = maxLimit;
        _onLimitChanged = onLimitChanged;
        _capacity = Math.Clamp(options.InitialLimit, options.MinLimit, maxLimit);
        _limit = _capacity;
        _permits = new SemaphoreSlim(_capacity, int.MaxValue);
    }

    /// <summary>Gets the current limit.</summary>
    public int Limit
    {
        get
        {
            lock (_gate)
            {
                return _capacity;
            }
        }
    }

    /// <summary>Waits for a permit to start an item.</summary>
    /// <param name="cancellationToken">Cancels the wait.</param>
    /// <returns>A task that completes when the permit is held.</returns>
    public async ValueTask WaitAsync(CancellationToken cancellationToken)
    {
        await _permits.WaitAsync(cancellationToken).ConfigureAwait(false);
        lock (_gate)
        {
            _inFlight++;
            _peakInFlight = Math.Max(_peakInFlight, _inFlight);
        }
    }

    /// <summary>Returns a permit that was never used for an item (the source had ended).</summary>
    public void Return()
    {
        lock (_gate)
        {
            _inFlight--;
            ReleasePermit();
        }
    }

    /// <summary>Returns a permit with the outcome of its item, and adjusts the limit at the end of each round.</summary>
    /// <param name="latencyTicks">How long the item took, in timestamp ticks.</param>
    /// <param name="failed">Whether the item failed or timed out.</param>
    public void Complete(long latencyTicks, bool failed)
    {
        var changed = 0;
        lock (_gate)
        {
            _inFlight--;
            if (_unmeasured > 0)
            {
                // Started before the last change of the limit: its latency says nothing about the new limit.
                _unmeasured--;
            }
            else
            {
                _windowCompletions++;
                if (failed)
                {
                    _windowFailures++;
                }
                else
                {
                    _windowLatencies.Add(latencyTicks);
                }

                if (_windowCompletions >= RoundSize)
                {
                    if (_probing)
                    {
                        EndProbe();
                    }
                    else
                    {
                        Adjust();
                    }

                    changed = Resize();
                    if (changed != 0)
                    {
                        _unmeasured = _inFlight;
                    }
                }
            }

            ReleasePermit();
        }

        if (changed != 0)
        {
            _onLimitChanged(changed);
        }
    }

    public void Dispose() => _permits.Dispose();

    /// <summary>
    /// Gets how many completions end the current round: the limit in slow start, whose doubling must not wait on noise
    /// (the deviation starts wide, and the first congestion dwarfs it); half of <see cref="MinRoundCompletions"/> for a
    /// probe, which runs at half the limit and costs throughput while it lasts; else at least <see cref="MinRoundCompletions"/>.
    /// </summary>
    internal int RoundSize => _slowStart ? _capacity : Math.Max(_capacity, _probing ? MinRoundCompletions / 2 : MinRoundCompletions);

    private void Adjust()
    {
        var completions = _windowCompletions;
        var successes = completions - _windowFailures;
        var failureRatio = _windowFailures / (double)completions;
        var latency = WindowMedian();
        var appLimited = _peakInFlight * 2 < _capacity;
        if (failureRatio > _longFailureRatio + FailureRise || failureRatio >= FailingRound)
        {
            _slowStart = false;
            _limit = Math.Max(_options.MinLimit, _limit * _options.BackoffRatio);
        }
        else if (latency > 0 && !RebasedAfterUnrelievedCuts(latency))
        {
            // The no-load latency is the lowest round's, but one more than a quarter below it counts only when the next
            // round shows it too: a coarse timer can end a whole round's waits early together, most easily a small
            // round's, and one such round taken as the baseline reads every ordinary round after it as a queue.
            var lowest = latency < _noLoadLatency * (1 - SuddenDrop) ? Math.Max(latency, _lastLatency) : latency;
            if (_noLoadLatency == 0 || lowest < _noLoadLatency)
            {
                _noLoadLatency = lowest;
            }

            _lastLatency = latency;

            // Latency within twice the rounds' mean deviation of the no-load latency is noise, not a queue: a coarse
            // timer shifts whole rounds together, and being a little past the knee costs little throughput while being
            // below it costs much more.
            // Alpha follows Netflix's VegasLimit in growing with log10 of the limit, scaled down because the band
            // already absorbs the noise that Vegas's wider thresholds are there for.
            var alpha = AlphaScale * Math.Max(1, Math.Log10(_limit));
            var tolerated = _noLoadLatency + Math.Max(2 * _latencyDeviation, _provenNoise);
            var queued = _limit * Math.Max(0, 1 - (tolerated / latency));

            // One round just past the band may be noise (a coarse timer firing late for a whole round); a queue that
            // is still there a round later, or one well past the band, is not.
            var queuedBeyond = queued > 1.5 * alpha;
            var confirmed = queuedBeyond && (_queuedLastRound || queued > 2 * alpha || _slowStart);
            _queuedLastRound = queuedBeyond && !confirmed;
            if (confirmed)
            {
                if (_latencyAtCut == 0)
                {
                    // The first cut of a run of them: what the latency must fall from, and the state to go back to if it does not.
                    _limitBeforeCut = _limit;
                    _slowStartBeforeCut = _slowStart;
                    _latencyAtCut = latency;
                }

                _slowStart = false;
                _limit = Math.Max(Math.Max(_options.MinLimit, _limit / 2), (_limit * tolerated / latency) + alpha);
            }
            else
            {
                // The deviation is learned, as TCP smooths round-trip times (RFC 6298), from rounds that do not lower the
                // limit, so congestion itself never widens the band that hides it; it starts at a quarter of the first
                // round (TCP starts at a half).
                _latencyDeviation = _smoothedLatency == 0 ? latency / 4 : _latencyDeviation + ((Math.Abs(latency - _smoothedLatency) - _latencyDeviation) * SmoothingGain);
                _smoothedLatency = _smoothedLatency == 0 ? latency : _smoothedLatency + ((latency - _smoothedLatency) * SmoothingGain);
                if (queued >= alpha)
                {
                    // Past alpha (a queue awaiting confirmation included): hold.
                    _slowStart = false;
                }
                else if (!appLimited)
                {
                    // Slow start doubles the limit each round; afterwards, one per round.
                    _limit = Math.Min(_maxLimit, _limit + (_slowStart ? _limit : 1));
                }
            }
        }

        _longFailureRatio = ((1 - LongRunWeight) * _longFailureRatio) + (LongRunWeight * failureRatio);
        ResetWindow();
        if (++_rounds % ProbeRounds == 0)
        {
            StartProbe();
        }
    }

    /// <summary>
    /// Re-bases the no-load latency when cuts since the latency was last relieved took a tenth of the limit or more and
    /// the latency did not fall: by Little's law the items queued in the service would have, so this latency is not a
    /// queue of ours. The no-load latency was measured too low (a timer that fired early for one small round) or the
    /// service slowed for everyone: the round becomes the no-load latency, as a probe's would, and the cuts are taken
    /// back. Without this, a baseline one lucky round too low reads every later round as congestion and ratchets the
    /// limit down a step a round.
    /// </summary>
    /// <param name="latency">The round's median latency.</param>
    /// <returns>Whether the round re-based the limit, and so decides nothing else.</returns>
    private bool RebasedAfterUnrelievedCuts(double latency)
    {
        if (_latencyAtCut == 0)
        {
            return false;
        }

        // Items queued in the service wait in proportion to how many there are: cutting the limit by a fraction f of it
        // takes about f off their latency. Half of that is the least a cut that relieved a queue shows.
        var cut = 1 - (_limit / _limitBeforeCut);
        if (latency < _latencyAtCut * (1 - (cut / 2)))
        {
            // The cuts relieved a queue: they were right.
            _latencyAtCut = 0;
            return false;
        }

        if (cut < SignificantCut)
        {
            // Too small a cut to tell yet.
            return false;
        }

        // How far the rounds stray from the old baseline is the latency's noise, proven not to be a queue: the band
        // never narrows below it again (until a probe re-measures the no-load latency), so the next lucky round does not
        // start the same cuts again.
        _provenNoise = Math.Max(_provenNoise, latency - _noLoadLatency);
        _noLoadLatency = latency;
        _limit = _limitBeforeCut;
        _slowStart = _slowStartBeforeCut;
        _latencyAtCut = 0;
        return true;
    }

    private void StartProbe()
    {
        _limitBeforeProbe = _limit;
        _limit = Math.Max(_options.MinLimit, _limit / 2);
        _probing = true;
    }

    private void EndProbe()
    {
        if (WindowMedian() is > 0 and var latency)
        {
            _noLoadLatency = latency;
        }

        _limit = _limitBeforeProbe;
        _provenNoise = 0;
        _probing = false;
        ResetWindow();
    }

    /// <summary>
    /// The round's median latency, 0 when nothing succeeded. The median, not the mean: one call that stalls on a
    /// garbage collection or a busy thread pool would move a mean as much as a queue of several items does.
    /// </summary>
    private double WindowMedian()
    {
        var count = _windowLatencies.Count;
        if (count == 0)
        {
            return 0;
        }

        _windowLatencies.Sort();
        return count % 2 == 1
            ? _windowLatencies[count / 2]
            : (_windowLatencies[(count / 2) - 1] + (double)_windowLatencies[count / 2]) / 2;
    }

    private void ResetWindow()
    {
        _windowCompletions = 0;
        _windowFailures = 0;
        _windowLatencies.Clear();
        _peakInFlight = _inFlight;
    }

    /// <summary>Moves the gate's capacity to the whole part of the limit.</summary>
    /// <returns>The new capacity when it changed, else 0.</returns>
    private int Resize()
    {
        var target = (int)_limit;
        var delta = target - _capacity;
        if (delta == 0)
        {
            return 0;
        }

        _capacity = target;
        if (delta < 0)
        {
            _debt -= delta;
            return target;
        }

        var repaid = Math.Min(delta, _debt);
        _debt -= repaid;
        if (delta > repaid)
        {
            _permits.Release(delta - repaid);
        }

        return target;
    }

    private void ReleasePermit()
    {
        if (_debt > 0)
        {
            _debt--;
            return;
        }

        _permits.Release();
    }
}
