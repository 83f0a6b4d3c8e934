using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using Millrace.Cluster.Jobs;
using Millrace.Parallel.Retry;
using Millrace.Parallel.Metrics;

namespace Millrace.Cluster.Tests.Jobs;

public class ClusterJobTests
{
    private static WorkItem[] Items(int count) => [.. Enumerable.Range(0, count).Select(i => new WorkItem($"item-{i}", $"payload-{i}"))];

    [Fact]
    public async Task ThreeSilos_RecordEveryItemOnce_AndShareTheWork()
    {
        await using var cluster = await ClusterFixture.StartAsync();
        await cluster.Jobs.SubmitAsync("all-once", TestHandler.Name, Items(2_000));

        var outcomes = await cluster.WatchToEndAsync("all-once");

        Assert.Equal(2_000, outcomes.Count);
        Assert.Equal(2_000, outcomes.Select(o => o.Key).Distinct().Count());
        Assert.All(outcomes, o => Assert.True(o.Succeeded));
        Assert.All(outcomes, o => Assert.Equal($"item-{o.Index}", o.Key));
        var status = await cluster.Jobs.GetStatusAsync("all-once");
        Assert.Equal(ClusterJobState.Completed, status.State);
        Assert.Equal((2_000L, 2_000L, 0L, 0L), (status.Total, status.Succeeded, status.Failed, status.Remaining));
        Assert.Equal(2_000, status.CompletedBySilo.Values.Sum());
        Assert.True(status.CompletedBySilo.Count >= 2, $"work ran on {status.CompletedBySilo.Count} silo(s) only");
    }

    [Fact]
    public async Task AHandlersResult_IsRecordedWithItsOutcome_AndOneTooLongFailsTheItem()
    {
        await using var cluster = await ClusterFixture.StartAsync(silos: 2);
        var items = Enumerable.Range(0, 50).Select(i => new WorkItem($"item-{i}", i == 7 ? "long" : $"r{i}")).ToList();
        await cluster.Jobs.SubmitAsync("results", ResultHandler.Name, items);

        var outcomes = (await cluster.WatchToEndAsync("results")).OrderBy(o => o.Index).ToList();

        Assert.Equal(50, outcomes.Count);
        Assert.All(outcomes.Where(o => o.Index != 7), o => Assert.Equal($"r{o.Index}r{o.Index}", o.Result));
        Assert.Equal(ClusterErrorCodes.ResultTooLong, outcomes[7].Error?.Code);
        Assert.Null(outcomes[7].Result);
    }

    [Fact]
    public async Task AHandlerWithoutAResult_RecordsNone()
    {
        await using var cluster = await ClusterFixture.StartAsync(silos: 1);
        await cluster.Jobs.SubmitAsync("no-results", TestHandler.Name, Items(10));
        Assert.All(await cluster.WatchToEndAsync("no-results"), o => Assert.Null(o.Result));
    }

    [Fact]
    public async Task KilledSilo_ItsItemsRunElsewhere_AndEveryOutcomeIsRecordedOnce()
    {
        await using var cluster = await ClusterFixture.StartAsync();
        cluster.Behaviour.Delay = TimeSpan.FromMilliseconds(2);
        await cluster.Jobs.SubmitAsync("kill", TestHandler.Name, Items(10_000), new ClusterJobOptions { LeaseTimeout = TimeSpan.FromSeconds(2) });

        // Kill a silo once a fifth of the items are recorded: it holds leases and some of the job's partitions.
        using (var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60)))
        {
            while ((await cluster.Jobs.GetStatusAsync("kill", timeout.Token)).Succeeded < 2_000)
            {
                await Task.Delay(TimeSpan.FromMilliseconds(20), cluster.Clock, timeout.Token);
            }
        }

        // It dies mid-item: the items it starts from now on never end there.
        var doomed = cluster.Cluster.Silos[^1];
        cluster.Behaviour.HangOn = doomed.Name;
        await Eventually.TrueAsync(() => Volatile.Read(ref cluster.Behaviour.Hanging) > 0, "the doomed silo to start an item");
        await cluster.Cluster.KillSiloAsync(doomed);
        var outcomes = await cluster.WatchToEndAsync("kill", TimeSpan.FromSeconds(120));

        Assert.Equal(10_000, outcomes.Count);
        Assert.Equal(10_000, outcomes.Select(o => o.Key).Distinct().Count());
        Assert.All(outcomes, o => Assert.True(o.Succeeded));
        Assert.Equal(10_000, cluster.Behaviour.Calls.Count);

        // The items it was running ran again on the others (at least once, outcome once); so may items of leases other silos
        // held on partitions that died with it.
        var reruns = cluster.Behaviour.Calls.Values.Sum() - 10_000;
        Assert.InRange(reruns, cluster.Behaviour.Hanging, 200);
        Assert.Equal(3, outcomes.Select(o => o.Silo).Distinct().Count());
        var status = await cluster.Jobs.GetStatusAsync("kill");
        Assert.Equal((ClusterJobState.Completed, 10_000L), (status.State, status.Succeeded));
    }

    [Fact]
    public async Task SiloStoppedInOrder_HandsBackItsLeasesAtOnce()
    {
        // Leases last 30 s: items of the stopped silo that came back only by expiry would hold the job that long.
        await using var cluster = await ClusterFixture.StartAsync(parallelism: 4);
        cluster.Behaviour.Delay = TimeSpan.FromMilliseconds(200);
        await cluster.Jobs.SubmitAsync("stop", TestHandler.Name, Items(240), new ClusterJobOptions { LeaseTimeout = TimeSpan.FromSeconds(30) });
        await Eventually.TrueAsync(() => cluster.Behaviour.Calls.Count >= 24, "every silo to run items");

        var stoppedAt = cluster.Clock.GetUtcNow();
        await cluster.Cluster.StopSiloAsync(cluster.Cluster.Silos[^1]);
        var outcomes = await cluster.WatchToEndAsync("stop");

        Assert.Equal(240, outcomes.Select(o => o.Key).Distinct().Count());
        Assert.All(outcomes, o => Assert.True(o.Succeeded));

        // Failed once in a full parallel test run (30.6 s): the last outcome's time tells a lease that waited out its
        // timeout (late) from a job status that was slow to say the job had ended (early), and the silos' warnings say why.
        var took = cluster.Clock.GetUtcNow() - stoppedAt;
        Assert.True(
            took < TimeSpan.FromSeconds(20),
            $"the job took {took} after the stop: the last outcome came {outcomes.Max(o => o.CompletedAt) - stoppedAt} after it.\n"
                + $"The silos' last warnings (the stop began at {stoppedAt:HH:mm:ss.fff}):\n" + string.Join("\n", cluster.Warnings.TakeLast(60)));
    }

    [Fact]
    public async Task ARetrysBackoff_WaitsOnTheClusterClock_WhileTheLeaseIsRenewed()
    {
        // A 25 s backoff inside a 30 s lease renewed every 10 s: the clock moves in 5 s steps, each renewal lands, and
        // the second attempt starts when the clock says the backoff is over.
        await using var cluster = await ClusterFixture.StartAsync(silos: 2);
        var failedOnce = 0;
        cluster.Behaviour.Fail = item => Interlocked.Exchange(ref failedOnce, 1) == 0 ? new IOException("flaky") : null;
        var options = new ClusterJobOptions { Retry = new RetryOptions { MaxRetryAttempts = 1, BackoffType = BackoffType.Constant, Delay = TimeSpan.FromSeconds(25) } };
        await cluster.Jobs.SubmitAsync("backoff", TestHandler.Name, Items(1), options);
        await Eventually.TrueAsync(() => cluster.Behaviour.Calls.GetValueOrDefault("item-0") == 1, "the first attempt");
        for (var step = 0; step < 4; step++)
        {
            await cluster.LetEveryWaitPassAsync(TimeSpan.FromSeconds(5));
        }

        Assert.Equal(1, cluster.Behaviour.Calls["item-0"]);
        cluster.Clock.Advance(TimeSpan.FromSeconds(5));
        var outcome = Assert.Single(await cluster.WatchToEndAsync("backoff"));
        Assert.True(outcome.Succeeded);
        Assert.Equal(2, cluster.Behaviour.Calls["item-0"]);
    }

    [Fact]
    public async Task FailingItems_AreRetried_ThenRecordedWithTheirError()
    {
        await using var cluster = await ClusterFixture.StartAsync(silos: 2);
        cluster.Behaviour.Fail = item => item.Key switch
        {
            "item-3" => new MillraceException(new Error("test.located", "bad byte") { ByteOffset = 17, Path = "Level.Items[2]" }),
            "item-7" => new InvalidOperationException("no such file"),
            _ => null,
        };
        await cluster.Jobs.SubmitAsync("failures", TestHandler.Name, Items(20), new ClusterJobOptions { Retry = new RetryOptions { MaxRetryAttempts = 1, Delay = TimeSpan.Zero } });

        var outcomes = (await cluster.WatchToEndAsync("failures")).ToDictionary(o => o.Key);

        Assert.Equal(20, outcomes.Count);
        var located = outcomes["item-3"].Error!;
        Assert.Equal(("test.located", "bad byte", 17L, "Level.Items[2]", 3L), (located.Code, located.Message, located.ByteOffset!.Value, located.Path, located.ItemIndex!.Value));
        var plain = outcomes["item-7"].Error!;
        Assert.Equal((ClusterErrorCodes.ItemFailed, "InvalidOperationException: no such file", 7L), (plain.Code, plain.Message, plain.ItemIndex!.Value));
        Assert.Equal(18, outcomes.Values.Count(o => o.Succeeded));

        // A located error is in the data and would only fail again: not retried. Anything else is.
        Assert.Equal(1, cluster.Behaviour.Calls["item-3"]);
        Assert.Equal(2, cluster.Behaviour.Calls["item-7"]);
        Assert.Equal(1, cluster.Behaviour.Calls["item-4"]);
        Assert.Equal(2, (await cluster.Jobs.GetStatusAsync("failures")).Failed);
    }

    [Fact]
    public async Task FailFast_FirstFailureStopsTheJob_AndKeepsWhatWasRecorded()
    {
        await using var cluster = await ClusterFixture.StartAsync(silos: 2, parallelism: 2);
        cluster.Behaviour.Delay = TimeSpan.FromMilliseconds(5);
        cluster.Behaviour.Fail = item => item.Key == "item-20" ? new InvalidOperationException("the service said no") : null;
        var options = new ClusterJobOptions { ErrorMode = Millrace.Parallel.ErrorMode.FailFast, Retry = null, LeaseSize = 2, LeaseTimeout = TimeSpan.FromSeconds(3) };
        await cluster.Jobs.SubmitAsync("fail-fast", TestHandler.Name, Items(1_000), options);

        var outcomes = await cluster.WatchToEndAsync("fail-fast");

        var status = await cluster.Jobs.GetStatusAsync("fail-fast");
        Assert.Equal(ClusterJobState.Failed, status.State);
        Assert.Contains(outcomes, o => o.Key == "item-20" && !o.Succeeded);
        Assert.True(outcomes.Count < 1_000, $"{outcomes.Count} outcomes: the job did not stop");
        Assert.Equal(outcomes.Count, status.Succeeded + status.Failed);
        var calls = cluster.Behaviour.Calls.Count;
        await cluster.LetEveryWaitPassAsync();
        Assert.Equal(calls, cluster.Behaviour.Calls.Count);
    }

    [Fact]
    public async Task FailFast_FailureAmongTheLastOutcomes_StillEndsFailed()
    {
        // One lease of every item: the partition records them all at once, the failure with them, and tells the job
        // both that it is done and that it failed; whichever comes first, the job ends Failed.
        await using var cluster = await ClusterFixture.StartAsync(silos: 1);
        cluster.Behaviour.Fail = item => item.Key == "item-7" ? new InvalidOperationException("the last one broke") : null;
        var options = new ClusterJobOptions { ErrorMode = Millrace.Parallel.ErrorMode.FailFast, Retry = null, LeaseSize = 8 };
        await cluster.Jobs.SubmitAsync("last-fails", TestHandler.Name, Items(8), options);

        var outcomes = await cluster.WatchToEndAsync("last-fails");

        Assert.Equal(8, outcomes.Count);
        Assert.Equal(ClusterJobState.Failed, (await cluster.Jobs.GetStatusAsync("last-fails")).State);
    }

    [Fact]
    public async Task Handler_DecidesWhatIsRetried_AndHowAFailureIsRecorded()
    {
        await using var cluster = await ClusterFixture.StartAsync(silos: 2);
        cluster.Behaviour.Fail = item => item.Key switch
        {
            "item-1" => new IOException("the share is busy"),
            "item-2" => new FileNotFoundException("no such file: a.nbt"),
            _ => null,
        };
        cluster.Behaviour.Retry = exception => exception is IOException and not FileNotFoundException;
        cluster.Behaviour.Describe = exception => exception is IOException ? new Error("io", exception.Message) : null;
        await cluster.Jobs.SubmitAsync("handled", JudgingHandler.Name, Items(4), new ClusterJobOptions { Retry = new RetryOptions { MaxRetryAttempts = 2, Delay = TimeSpan.Zero } });

        var outcomes = (await cluster.WatchToEndAsync("handled")).ToDictionary(o => o.Key);

        Assert.Equal((3, 1), (cluster.Behaviour.Calls["item-1"], cluster.Behaviour.Calls["item-2"]));
        Assert.Equal(("io", "the share is busy", 1L), (outcomes["item-1"].Error!.Code, outcomes["item-1"].Error!.Message, outcomes["item-1"].Error!.ItemIndex!.Value));
        Assert.Equal(("io", "no such file: a.nbt"), (outcomes["item-2"].Error!.Code, outcomes["item-2"].Error!.Message));
        Assert.True(outcomes["item-0"].Succeeded && outcomes["item-3"].Succeeded);
    }

    [Fact]
    public async Task PerAttemptTimeout_EndsAHungAttempt_WhichIsRetried_ThenRecordedAsTimedOut()
    {
        await using var cluster = await ClusterFixture.StartAsync(silos: 2);
        cluster.Behaviour.Hangs = item => item.Key == "item-2";
        var options = new ClusterJobOptions { PerAttemptTimeout = TimeSpan.FromMilliseconds(300), Retry = new RetryOptions { MaxRetryAttempts = 1, Delay = TimeSpan.Zero } };
        await cluster.Jobs.SubmitAsync("timeout", TestHandler.Name, Items(6), options);

        var outcomes = (await cluster.WatchToEndAsync("timeout")).ToDictionary(o => o.Key);

        Assert.Equal(2, cluster.Behaviour.Calls["item-2"]);
        Assert.Equal(ClusterErrorCodes.ItemFailed, outcomes["item-2"].Error!.Code);
        Assert.Equal("TimeoutException: The attempt did not finish within 00:00:00.3000000.", outcomes["item-2"].Error!.Message);
        Assert.All(outcomes.Values.Where(o => o.Key != "item-2"), o => Assert.True(o.Succeeded));
    }

    [Fact]
    public async Task Silos_ReportMillraceParallelsInstruments_TaggedWithTheJobsName()
    {
        // In-process silos share this process's meters; a silo process exports the same instruments (samples/ClusterJob).
        var totals = new ConcurrentDictionary<string, long>(StringComparer.Ordinal);
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == ParallelInstruments.MeterName)
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
        {
            if (tags.Length == 1 && tags[0].Key == ParallelInstruments.OperationTag && Equals(tags[0].Value, "metered"))
            {
                totals.AddOrUpdate(instrument.Name, value, (_, total) => total + value);
            }
        });
        listener.Start();
        await using var cluster = await ClusterFixture.StartAsync(silos: 2);
        cluster.Behaviour.Fail = item => item.Key == "item-3" ? new IOException("the disk is full") : null;
        await cluster.Jobs.SubmitAsync("metered", TestHandler.Name, Items(40), new ClusterJobOptions { Retry = new RetryOptions { MaxRetryAttempts = 1, Delay = TimeSpan.Zero } });

        var outcomes = await cluster.WatchToEndAsync("metered");

        Assert.Equal(40, outcomes.Count);
        Assert.Equal(40, totals.GetValueOrDefault(ParallelInstruments.ItemsStarted));
        Assert.Equal(39, totals.GetValueOrDefault(ParallelInstruments.ItemsCompleted));
        Assert.Equal(1, totals.GetValueOrDefault(ParallelInstruments.ItemsFailed));
        Assert.Equal(1, totals.GetValueOrDefault(ParallelInstruments.ItemsRetried));
        Assert.Equal(0, totals.GetValueOrDefault(ParallelInstruments.ItemsInFlight));
    }

    [Fact]
    public async Task Cancel_StopsLeasing_AndKeepsWhatWasRecorded()
    {
        await using var cluster = await ClusterFixture.StartAsync(silos: 2, parallelism: 4);
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        cluster.Behaviour.Gate = gate.Task;
        await cluster.Jobs.SubmitAsync("cancel", TestHandler.Name, Items(500));
        await Eventually.TrueAsync(() => cluster.Behaviour.Calls.Count >= 8, "both silos to lease items");

        await cluster.Jobs.CancelAsync("cancel");

        // Each silo holds a lease beyond its 4 slots, and its items wait for a slot: none starts after the silo's next read
        // of the job list, a poll (20 ms here) away.
        await cluster.LetEveryWaitPassAsync(TimeSpan.FromMilliseconds(200));
        var started = cluster.Behaviour.Calls.Count;
        Assert.Equal(8, started);
        gate.SetResult();
        var outcomes = await cluster.WatchToEndAsync("cancel");

        var status = await cluster.Jobs.GetStatusAsync("cancel");
        Assert.Equal(ClusterJobState.Cancelled, status.State);
        Assert.True(outcomes.Count <= started, $"{outcomes.Count} outcomes from {started} started items");
        await cluster.LetEveryWaitPassAsync();
        Assert.Equal(started, cluster.Behaviour.Calls.Count);
    }

    [Fact]
    public async Task EverySiloRestarted_TheJobResumesWhereItWas()
    {
        await using var cluster = await ClusterFixture.StartAsync(silos: 3, parallelism: 4);
        cluster.Behaviour.Delay = TimeSpan.FromMilliseconds(5);
        await cluster.Jobs.SubmitAsync("resume", TestHandler.Name, Items(1_500), new ClusterJobOptions { LeaseTimeout = TimeSpan.FromSeconds(2) });
        await Eventually.TrueAsync(() => cluster.Behaviour.Calls.Count >= 200, "some items to run");

        // Outcomes are persisted in pages: what was recorded before the stop spans several, and none of it runs again.
        var recordedBefore = new List<string>();
        await foreach (var outcome in cluster.Jobs.WatchAsync("resume", TimeSpan.FromMilliseconds(20)))
        {
            recordedBefore.Add(outcome.Key);
            if (recordedBefore.Count > 2 * 64)
            {
                break;
            }
        }

        await cluster.Cluster.StopAllSilosAsync();
        var before = cluster.Behaviour.Calls.Count;
        var callsAtStop = new Dictionary<string, int>(cluster.Behaviour.Calls, StringComparer.Ordinal);
        await cluster.Cluster.StartSilosAsync(3);
        await cluster.Cluster.InitializeClientAsync();
        var outcomes = await cluster.WatchToEndAsync("resume", TimeSpan.FromSeconds(120));

        Assert.Equal(1_500, outcomes.Count);
        Assert.Equal(1_500, outcomes.Select(o => o.Key).Distinct().Count());
        Assert.InRange(before, 200, 1_499);
        Assert.All(recordedBefore, key => Assert.True(cluster.Behaviour.Calls[key] == callsAtStop[key], $"{key}, recorded before the stop, ran again"));
        Assert.Equal(ClusterJobState.Completed, (await cluster.Jobs.GetStatusAsync("resume")).State);
    }

    [Fact]
    public async Task CallsFailingAsToASiloJustKilled_AreMadeAgain_AndTheJobRunsOnce()
    {
        await using var cluster = await ClusterFixture.StartAsync(silos: 2);
        using var limit = new CancellationTokenSource(TimeSpan.FromSeconds(60));

        // The first call of each method to each grain fails one of the ways a call to a dead silo fails, in turn. The calls
        // that change a job lose their answer after they ran (made again, they must find themselves done); the others fail
        // before they are sent.
        Exception[] ways =
        [
            new Orleans.Runtime.Messaging.ConnectionFailedException("Unable to connect to the silo."),
            new SiloUnavailableException("The target silo became unavailable."),
            new GatewayTooBusyException("The gateway is too busy."),
            new TimeoutException("Response did not arrive on time."),
        ];
        var failedOnce = new ConcurrentDictionary<string, int>(StringComparer.Ordinal);
        var failedMethods = new ConcurrentDictionary<string, int>(StringComparer.Ordinal);
        Exception? FirstTime(IOutgoingGrainCallContext context)
        {
            if (!failedOnce.TryAdd($"{context.MethodName} {context.TargetId}", 0))
            {
                return null;
            }

            failedMethods.AddOrUpdate(context.MethodName, 1, static (_, n) => n + 1);
            return ways[failedOnce.Count % ways.Length];
        }

        string[] changing = ["PrepareAsync", "InitializeAsync", "StartAsync", "CancelAsync"];
        cluster.ClientCallFault = context => changing.Contains(context.MethodName) ? null : FirstTime(context);
        cluster.ClientAnswerFault = context => changing.Contains(context.MethodName) ? FirstTime(context) : null;

        // Two partitions: each one's initialization fails once.
        await cluster.Jobs.SubmitAsync("gone", TestHandler.Name, Items(1_500), cancellationToken: limit.Token);
        var outcomes = await cluster.WatchToEndAsync("gone");

        // The watch asked for the job's status already: each call below fails first again.
        failedOnce.Clear();
        var status = await cluster.Jobs.GetStatusAsync("gone", limit.Token);
        failedOnce.Clear();
        await cluster.Jobs.CancelAsync("gone", limit.Token);
        failedOnce.Clear();
        var running = await cluster.Jobs.ListRunningAsync(limit.Token);

        Assert.Equal(1_500, outcomes.Select(o => o.Key).Distinct().Count());
        Assert.Equal(1_500, outcomes.Count);
        Assert.Equal((ClusterJobState.Completed, 1_500L), (status.State, status.Succeeded));
        Assert.DoesNotContain("gone", running);
        Assert.Equal(1_500, cluster.Behaviour.Calls.Count);
        Assert.All(cluster.Behaviour.Calls.Values, calls => Assert.Equal(1, calls));
        Assert.Superset(
            new HashSet<string>(["PrepareAsync", "InitializeAsync", "StartAsync", "GetDefinitionAsync", "GetStatusAsync", "CancelAsync", "ListAsync"]),
            new HashSet<string>(failedMethods.Keys));
        Assert.Equal(2, failedMethods["InitializeAsync"]);
    }

    [Fact]
    public async Task CallsFailingForAnotherReason_OrCancelled_AreNotMadeAgain()
    {
        await using var cluster = await ClusterFixture.StartAsync(silos: 1);
        var calls = 0;
        cluster.ClientCallFault = context =>
        {
            Interlocked.Increment(ref calls);
            return new InvalidOperationException("the grain's own error");
        };
        using var limit = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        await Assert.ThrowsAsync<InvalidOperationException>(() => cluster.Jobs.SubmitAsync("own-error", TestHandler.Name, Items(3), cancellationToken: limit.Token));
        Assert.Equal(1, calls);

        // Nor is an Orleans error that is not about reaching a silo (here its base type).
        cluster.ClientCallFault = context =>
        {
            Interlocked.Increment(ref calls);
            return new OrleansException("a grain's error Orleans could not carry");
        };
        await Assert.ThrowsAsync<OrleansException>(() => cluster.Jobs.SubmitAsync("own-error", TestHandler.Name, Items(3), cancellationToken: limit.Token));
        Assert.Equal(2, calls);

        // A cluster that stays unreachable: the caller's token ends the retries.
        cluster.ClientCallFault = _ => new Orleans.Runtime.Messaging.ConnectionFailedException("Unable to connect.");
        using var cancel = new CancellationTokenSource(TimeSpan.FromSeconds(2));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => cluster.Jobs.GetStatusAsync("own-error", cancel.Token));
    }

    [Fact]
    public async Task Submit_RefusesBadJobs_AndAcceptsTheSameJobAgain()
    {
        await using var cluster = await ClusterFixture.StartAsync(silos: 1);
        var jobs = cluster.Jobs;
        await Assert.ThrowsAsync<ArgumentException>(() => jobs.SubmitAsync("a/b", TestHandler.Name, Items(1)));
        await Assert.ThrowsAsync<ArgumentException>(() => jobs.SubmitAsync("dup", TestHandler.Name, [new WorkItem("k", "1"), new WorkItem("k", "2")]));
        var invalid = await Assert.ThrowsAsync<ArgumentException>(() => jobs.SubmitAsync("bad", TestHandler.Name, Items(1), new ClusterJobOptions { LeaseSize = 0, Retry = new RetryOptions { MaxRetryAttempts = -1 } }));
        Assert.Contains("LeaseSize must be from 1 to 1024 (was 0)", invalid.Message, StringComparison.Ordinal);
        Assert.Contains("Retry.MaxRetryAttempts must be between 0 and 1000 (was -1)", invalid.Message, StringComparison.Ordinal);

        await jobs.SubmitAsync("same", TestHandler.Name, Items(10));
        await jobs.SubmitAsync("same", TestHandler.Name, Items(10));
        await Assert.ThrowsAsync<ArgumentException>(() => jobs.SubmitAsync("same", TestHandler.Name, Items(11)));
        Assert.Equal(10, (await cluster.WatchToEndAsync("same")).Count);
        Assert.Equal(ClusterJobState.Unknown, (await jobs.GetStatusAsync("never")).State);
    }
}
