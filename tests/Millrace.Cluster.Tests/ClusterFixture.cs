using System.Collections.Concurrent;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Millrace.Cluster.Hosting;
using Millrace.Cluster.Jobs;
using Orleans.Persistence.FileStorage;
using Orleans.TestingHost;

// Each test starts a cluster of silos on this machine's cores, and the shared-limit tests measure a rate over seconds:
// one cluster at a time, so a 10,000-item job in another class does not take the cores a rate is measured on.
[assembly: CollectionBehavior(DisableTestParallelization = true)]

namespace Millrace.Cluster.Tests;

/// <summary>
/// An in-process cluster of silos on loopback, each a worker with the test handlers, persisting jobs to files in a
/// folder of its own (file storage survives the silos, as Redis would; memory storage would die with them).
/// </summary>
internal sealed class ClusterFixture : IAsyncDisposable
{
    private readonly string _storage = Directory.CreateTempSubdirectory("millrace-cluster-").FullName;

    static ClusterFixture()
    {
        // Three silos and a client share this process's thread pool on two cores. A synchronous wait inside an async
        // method somewhere in the stack (seen in a thread-time trace: ManualResetEventSlim.Wait under an async method's
        // start; not in Millrace's code) can hold the few threads the pool starts with, and it adds one about every half
        // second: the rate test saw no call at all for up to a second, once in about three runs. Silos in processes of
        // their own each have a pool.
        ThreadPool.GetMinThreads(out var workers, out var completionPorts);
        ThreadPool.SetMinThreads(Math.Max(workers, 32), completionPorts);
    }

    private ClusterFixture(int silos, int parallelism, Action<string, ISiloBuilder>? configure)
    {
        Behaviour = new HandlerBehaviour(Clock);
        var builder = new InProcessTestClusterBuilder((short)silos);
        // TestingHost's default writes a log file per silo into the working folder.
        builder.Options.ConfigureFileLogging = false;
        builder.ConfigureSilo((options, silo) =>
        {
            configure?.Invoke(options.SiloName, silo);
            silo.AddFileGrainStorage(ClusterHostingConstants.StorageName, o => o.RootDirectory = _storage);
            silo.Services.AddSingleton(Behaviour);
            silo.Services.AddKeyedSingleton<TimeProvider>(ClusterHostingConstants.TimeProviderKey, Clock);
            silo.Services.AddLogging(logging => logging.AddProvider(new WarningLog(options.SiloName, Warnings)));
            silo.AddMillraceWorker<TestHandler>(TestHandler.Name, o =>
            {
                o.MaxDegreeOfParallelism = parallelism;
                o.PollInterval = TimeSpan.FromMilliseconds(20);
            });
            silo.AddMillraceWorker<JudgingHandler>(JudgingHandler.Name);
            silo.AddMillraceWorker<ResultHandler>(ResultHandler.Name);
        });
        builder.ConfigureClient(client => client.AddOutgoingGrainCallFilter(async context =>
        {
            if (ClientCallFault(context) is { } fault)
            {
                throw fault;
            }

            await context.Invoke();
            if (ClientAnswerFault(context) is { } lost)
            {
                throw lost;
            }
        }));
        Cluster = builder.Build();
    }

    /// <summary>An error the client's call fails with before it is sent (as a call to a silo just killed fails), or none.</summary>
    public Func<IOutgoingGrainCallContext, Exception?> ClientCallFault { get; set; } = _ => null;

    /// <summary>An error the client's call fails with after it ran on its grain (its answer lost on the way back), or none.</summary>
    public Func<IOutgoingGrainCallContext, Exception?> ClientAnswerFault { get; set; } = _ => null;

    /// <summary>The name of a test cluster's first silo.</summary>
    public const string FirstSilo = "Silo_0";

    public InProcessTestCluster Cluster { get; }

    /// <summary>Every silo's warnings and errors, with their time, for a failing test to show.</summary>
    public ConcurrentQueue<string> Warnings { get; } = new();

    /// <summary>What the handler does and what it has seen, shared by every silo (they run in this process).</summary>
    public HandlerBehaviour Behaviour { get; }

    /// <summary>The clock of every silo's Millrace waits, of the client's, of the handlers' and of the tests' measures.</summary>
    public JumpingClock Clock { get; } = new();

    public ClusterJobs Jobs => new(Cluster.Client, Clock);

    /// <summary>Starts a cluster.</summary>
    /// <param name="silos">How many silos.</param>
    /// <param name="parallelism">Each silo's worker limit.</param>
    /// <param name="configure">More set-up per silo, given the silo's name (the first is <see cref="FirstSilo"/>).</param>
    public static async Task<ClusterFixture> StartAsync(int silos = 3, int parallelism = 8, Action<string, ISiloBuilder>? configure = null)
    {
        var fixture = new ClusterFixture(silos, parallelism, configure);
        await fixture.Cluster.DeployAsync();
        return fixture;
    }

    /// <summary>Reads every outcome of a job until it ends, bounded in time.</summary>
    public async Task<List<JobItemOutcome>> WatchToEndAsync(string jobId, TimeSpan? limit = null)
    {
        // Real time: this bounds a test that hangs, whatever its clock does.
        using var timeout = new CancellationTokenSource(limit ?? TimeSpan.FromSeconds(60));
        var outcomes = new List<JobItemOutcome>();
        await foreach (var outcome in Jobs.WatchAsync(jobId, TimeSpan.FromMilliseconds(20), timeout.Token))
        {
            outcomes.Add(outcome);
        }

        return outcomes;
    }

    /// <summary>
    /// Moves the clock past every wait of the silos' (polls, renewals, lease expiry, backoff, breaks) and gives their
    /// grain calls a moment of real time to land: what a test asserts did not happen has had every chance to.
    /// </summary>
    public async Task LetEveryWaitPassAsync(TimeSpan? beyond = null)
    {
        Clock.Advance(beyond ?? TimeSpan.FromMinutes(1));
        await Task.Delay(TimeSpan.FromMilliseconds(100), TimeProvider.System);
    }

    public async ValueTask DisposeAsync()
    {
        Behaviour.Released.TrySetResult();
        await Cluster.DisposeAsync();
        Directory.Delete(_storage, recursive: true);
    }
}

/// <summary>The handler's behaviour in one test, and the calls it has seen.</summary>
internal sealed class HandlerBehaviour(JumpingClock clock)
{
    /// <summary>The cluster's clock: the handlers wait on it and time their calls by it.</summary>
    public JumpingClock Clock => clock;

    public ConcurrentDictionary<string, int> Calls { get; } = new(StringComparer.Ordinal);

    /// <summary>When each call of <see cref="TestHandler"/> started, by <see cref="Clock"/>'s timestamp.</summary>
    public ConcurrentQueue<long> CallTimes { get; } = new();

    public TimeSpan Delay { get; set; } = TimeSpan.FromMilliseconds(1);

    /// <summary>Throws for an item, or returns normally when it returns null.</summary>
    public Func<WorkItem, Exception?> Fail { get; set; } = _ => null;

    /// <summary>A silo whose items, from now on, hang until <see cref="Released"/>: a silo about to die mid-item.</summary>
    public string? HangOn { get; set; }

    /// <summary>How many items hang.</summary>
    public int Hanging;

    /// <summary>Lets hanging items go when the test ends.</summary>
    public TaskCompletionSource Released { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Items that never end by themselves: only their cancellation (a timeout, a cancel) ends them.</summary>
    public Func<WorkItem, bool> Hangs { get; set; } = _ => false;

    /// <summary>Awaited before each item's work: a test holds items running with it.</summary>
    public Task Gate { get; set; } = Task.CompletedTask;

    /// <summary>The handler's own retry decision, when a test sets one.</summary>
    public Func<Exception, bool>? Retry { get; set; }

    /// <summary>The handler's own description of a failure, when a test sets one.</summary>
    public Func<Exception, Error?>? Describe { get; set; }
}

/// <summary>The handler every test silo registers: counts its calls, waits, and fails as the behaviour says.</summary>
internal sealed class TestHandler(HandlerBehaviour behaviour, ILocalSiloDetails silo) : IWorkItemHandler
{
    public const string Name = "test";

    public async ValueTask HandleAsync(WorkItem item, CancellationToken cancellationToken)
    {
        behaviour.Calls.AddOrUpdate(item.Key, 1, static (_, n) => n + 1);
        behaviour.CallTimes.Enqueue(behaviour.Clock.GetTimestamp());
        if (behaviour.HangOn == silo.Name)
        {
            Interlocked.Increment(ref behaviour.Hanging);
            await behaviour.Released.Task;
            throw new OperationCanceledException("the silo died");
        }

        await behaviour.Gate.WaitAsync(cancellationToken);
        await Task.Delay(behaviour.Hangs(item) ? Timeout.InfiniteTimeSpan : behaviour.Delay, behaviour.Clock, cancellationToken);

        if (behaviour.Fail(item) is { } exception)
        {
            throw exception;
        }
    }
}

/// <summary>The test handler with its own retry decision and failure description (<see cref="HandlerBehaviour.Retry"/>, <see cref="HandlerBehaviour.Describe"/>).</summary>
internal sealed class JudgingHandler(HandlerBehaviour behaviour, ILocalSiloDetails silo) : IWorkItemHandler
{
    public const string Name = "judging";

    private readonly TestHandler _inner = new(behaviour, silo);

    public ValueTask HandleAsync(WorkItem item, CancellationToken cancellationToken) => _inner.HandleAsync(item, cancellationToken);

    public bool ShouldRetry(Exception exception) => behaviour.Retry!(exception);

    public Error? DescribeFailure(Exception exception) => behaviour.Describe!(exception);
}

/// <summary>A handler that returns a result: the item's payload twice, or (payload "long") one longer than a result may be.</summary>
internal sealed class ResultHandler : IWorkItemHandler
{
    public const string Name = "result";

    public ValueTask HandleAsync(WorkItem item, CancellationToken cancellationToken) => throw new NotSupportedException("The workers ask for the result.");

    public ValueTask<string?> HandleWithResultAsync(WorkItem item, CancellationToken cancellationToken) =>
        ValueTask.FromResult<string?>(item.Payload == "long" ? new string('x', ClusterJobConstants.MaxResultLength + 1) : item.Payload + item.Payload);
}

/// <summary>A handler that always fails: registered on chosen silos only, it makes their calls, and only theirs, fail.</summary>
internal sealed class FailingHandler(HandlerBehaviour behaviour) : IWorkItemHandler
{
    public async ValueTask HandleAsync(WorkItem item, CancellationToken cancellationToken)
    {
        behaviour.Calls.AddOrUpdate(item.Key, 1, static (_, n) => n + 1);
        await Task.Delay(TimeSpan.FromMilliseconds(1), behaviour.Clock, cancellationToken);
        throw new InvalidOperationException("the service is down");
    }
}

/// <summary>Keeps a silo's warnings and errors (Orleans' and the worker's) in memory, with their time.</summary>
internal sealed class WarningLog(string silo, ConcurrentQueue<string> sink) : ILoggerProvider
{
    public ILogger CreateLogger(string categoryName) => new Logger(silo, categoryName, sink);

    public void Dispose()
    {
    }

    private sealed class Logger(string silo, string category, ConcurrentQueue<string> sink) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => logLevel >= LogLevel.Warning;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (IsEnabled(logLevel))
            {
                sink.Enqueue($"{DateTimeOffset.UtcNow:HH:mm:ss.fff} {silo} {category}: {formatter(state, exception)}");
            }
        }
    }
}
