using System.CommandLine;
#if MILLRACE_CLUSTER
using System.Globalization;
using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Millrace.Cluster.Hosting;
using Millrace.Cluster.Jobs;
using Orleans.Configuration;
using Orleans.Persistence.FileStorage;
using StackExchange.Redis;
#endif

namespace Millrace.Cli.Cluster;

/// <summary>
/// The <c>millrace cluster</c> verbs: host a worker silo, and show the cluster's jobs. Orleans is not trim-safe, so the
/// NativeAOT build of the tool leaves them out (and <c>batch convert --cluster</c>) and says so when they are called; the
/// <c>dotnet tool</c> package has them.
/// </summary>
internal static class ClusterCommands
{
    /// <summary>The one line a build without cluster support prints for a cluster verb or option.</summary>
    public const string NotInThisBuild = "millrace: this build of millrace (NativeAOT) has no cluster support: Orleans is not trim-safe. Install the .NET tool (dotnet tool install Millrace.Cli) for 'cluster' and 'batch convert --cluster'.";

#if MILLRACE_CLUSTER
    public static Command Create(CliConsole console)
    {
        var cluster = new Command("cluster", "Run conversions across machines: host worker silos, follow cluster jobs.");
        cluster.Add(Silo(console));
        cluster.Add(Status(console));
        return cluster;
    }

    /// <summary>The <c>--cluster</c> option of a client: a silo's gateway or the silos' Redis, checked as it is parsed.</summary>
    public static Option<ClusterAddress?> AddressOption(string description) =>
        Parsed("--cluster", description, ClusterConnection.ParseAddress, "HOST:PORT (a silo's gateway; HOST an IP address or a name this machine resolves) or redis://HOST:PORT");

    /// <summary>The <c>--redis HOST:PORT</c> option of a silo.</summary>
    private static Option<IPEndPoint?> RedisOption() => Parsed(
        "--redis",
        "Keep membership and jobs in this Redis, HOST:PORT: silos on several machines (default: one machine, development clustering and a job folder).",
        ClusterConnection.ParseEndpoint,
        "HOST:PORT (HOST an IP address or a name this machine resolves)");

    /// <summary>An option whose value <paramref name="parse"/> checks as it is parsed: a bad one is a usage error naming the option.</summary>
    private static Option<T?> Parsed<T>(string name, string description, Func<string, T?> parse, string expected)
        where T : class
    {
        var option = new Option<T?>(name) { Description = description };
        option.CustomParser = result =>
        {
            var text = result.Tokens.Count > 0 ? result.Tokens[^1].Value : string.Empty;
            var value = parse(text);
            if (value is null)
            {
                result.AddError($"{name} must be {expected}, not '{text}'.");
            }

            return value;
        };
        return option;
    }

    private static Command Silo(CliConsole console)
    {
        var port = CliOptions.WholeNumber("--port", "The silo port; default the first free of 11111, 11112, ... on this machine, so a silo started again takes its old place. Without --redis the silo on 11111 is the primary the others join, so start it first.", 1, 65535, defaultValue: null);
        var gatewayPort = CliOptions.WholeNumber("--gateway-port", "The gateway port clients connect to; default the silo port's pair (30000 for 11111, 30001 for 11112, ...) when free, else a free one.", 1, 65535, defaultValue: null);
        var parallel = CliOptions.WholeNumber("--parallel", "Items this silo runs at once (default: the number of processors).", 1, 1024, () => Environment.ProcessorCount);
        var storage = new Option<string?>("--storage") { Description = "Without --redis: the folder jobs are kept in, shared by the silos of this machine (default: ~/.local/share/millrace/cluster)." };
        var redis = RedisOption();
        var address = new Option<string?>("--address") { Description = "With --redis: the IP address other silos and clients reach this silo at (default 127.0.0.1)." };
        var command = new Command("silo", "Host a worker silo with the built-in conversion handler until Ctrl+C or SIGTERM.") { port, gatewayPort, parallel, storage, redis, address };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var redisEndpoint = parsed.GetValue(redis);
            var advertised = IPAddress.Loopback;
            if (parsed.GetValue(address) is { } addressText && !IPAddress.TryParse(addressText, out advertised!))
            {
                await console.Error.WriteLineAsync($"millrace: --address must be an IP address, not '{addressText}'.");
                return ExitCodes.Usage;
            }

            // Unless told, a silo takes this machine's first free pair of ports from 11111 and 30000 up, so one started again
            // takes its old place. With Redis every silo is equal; on one machine the silo on 11111 is the primary the others join.
            using var claim = parsed.GetValue(port) is 0 ? ClusterConnection.ClaimPorts(Path.Combine(ClusterConnection.MachineFolder(), "silo-ports")) : null;
            var siloPort = claim?.SiloPort ?? parsed.GetValue(port);
            var gateway = parsed.GetValue(gatewayPort) is > 0 and var g ? g : claim?.GatewayPort ?? ClusterConnection.PairedGatewayPort(siloPort);
            if (siloPort == gateway)
            {
                await console.Error.WriteLineAsync($"millrace: cluster silo: the silo port and the gateway port must differ, not both {siloPort}.");
                return ExitCodes.Usage;
            }

            // A port another silo holds binds again (Orleans' listeners share a port with SO_REUSEPORT, and two silos would
            // then split its connections): a port given must be free now, as a claimed one is.
            var taken = !ClusterConnection.IsFree(siloPort) ? siloPort : !ClusterConnection.IsFree(gateway) ? gateway : 0;
            if (taken != 0)
            {
                throw new CliException(CliErrorCodes.Cluster, string.Create(CultureInfo.InvariantCulture, $"Port {taken} of {advertised} is taken: choose others with --port and --gateway-port."));
            }
            var primary = redisEndpoint is null && siloPort == ClusterConnection.PrimarySiloPort;
            var folder = Path.GetFullPath(parsed.GetValue(storage) ?? Path.Combine(ClusterConnection.MachineFolder(), "cluster"));

            var builder = ClusterConnection.HostBuilder();
            builder.Services.AddSingleton(console);
            builder.UseOrleans(silo =>
            {
                silo.Configure<ClusterOptions>(o => (o.ClusterId, o.ServiceId) = (ClusterConnection.ClusterId, ClusterConnection.ClusterId));

                // Silos started together race to write the membership table, and a silo's write that declares its own older
                // entry dead can lose; until the next read of the table (60 s by default) that entry keeps the others from joining.
                silo.Configure<ClusterMembershipOptions>(o => o.TableRefreshTimeout = ClusterConnection.MembershipRefresh);
                if (redisEndpoint is not null)
                {
                    var redisOptions = ClusterConnection.RedisOptions(redisEndpoint);
                    silo.UseRedisClustering(o => o.ConfigurationOptions = redisOptions)
                        .AddRedisGrainStorage(ClusterHostingConstants.StorageName, o => o.ConfigurationOptions = redisOptions)
                        .ConfigureEndpoints(advertised, siloPort, gateway, listenOnAnyHostAddress: false);
                }
                else
                {
                    Directory.CreateDirectory(folder);
                    silo.UseLocalhostClustering(siloPort, gateway, primary ? null : new IPEndPoint(IPAddress.Loopback, ClusterConnection.PrimarySiloPort), ClusterConnection.ClusterId, ClusterConnection.ClusterId)
                        .AddFileGrainStorage(ClusterHostingConstants.StorageName, o => o.RootDirectory = folder);
                }

                silo.AddMillraceWorker<ConvertFileHandler>(ConvertFileHandler.Name, o => o.MaxDegreeOfParallelism = parsed.GetValue(parallel));
                silo.AddMillraceWorker<WorldRegionHandler>(WorldRegionHandler.Name);
            });
            using var host = builder.Build();
            try
            {
                await host.StartAsync(cancellationToken);
            }
            catch (RedisConnectionException exception)
            {
                throw ClusterConnection.RedisUnreachable(redisEndpoint!, exception);
            }
            catch (Exception exception) when (ClusterConnection.IsAddressInUse(exception))
            {
                throw new CliException(CliErrorCodes.Cluster, $"Port {siloPort} or {gateway} of {advertised} is taken: choose others with --port and --gateway-port.");
            }

            await using (var output = console.CreateTextOutput())
            {
                var store = redisEndpoint is null ? folder : $"Redis {redisEndpoint}";
                await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"silo {(primary ? "(primary) " : string.Empty)}on {advertised}:{siloPort}, gateway {advertised}:{gateway}, {parsed.GetValue(parallel)} at once; jobs kept in {store}"));
            }

            try
            {
                await Task.Delay(Timeout.Infinite, cancellationToken);
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                // Stopped by a signal: leave the cluster in order, so its leases go to the other silos without waiting.
            }

            await host.StopAsync(CancellationToken.None);
            return ExitCodes.Interrupted;
        });
        return command;
    }

    private static Command Status(CliConsole console)
    {
        var job = new Argument<string?>("job") { Description = "The job to show; every running job when left out.", Arity = ArgumentArity.ZeroOrOne };
        var cluster = AddressOption("A silo's gateway, HOST:PORT (default 127.0.0.1:30000), or the silos' Redis, redis://HOST:PORT.");
        var command = new Command("status", "Show a cluster job's progress, or the running jobs.") { job, cluster };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var address = parsed.GetValue(cluster) ?? new ClusterAddress(new IPEndPoint(IPAddress.Loopback, ClusterConnection.PrimaryGatewayPort), null);
            using var host = await ClusterConnection.ConnectAsync(address, cancellationToken);
            var jobs = new ClusterJobs(host.Client());
            var names = parsed.GetValue(job) is { } name ? [name] : await jobs.ListRunningAsync(cancellationToken);
            await using var output = console.CreateTextOutput();
            if (names.Count == 0)
            {
                await output.WriteLineAsync("no running jobs");
            }

            foreach (var jobName in names)
            {
                var status = await jobs.GetStatusAsync(jobName, cancellationToken);
                if (status.State == ClusterJobState.Unknown)
                {
                    await console.Error.WriteLineAsync($"millrace: no cluster job named '{jobName}'");
                    return ExitCodes.BadInput;
                }

                var bySilo = string.Join(", ", status.CompletedBySilo.OrderBy(s => s.Key, StringComparer.Ordinal).Select(s => $"{s.Key} {s.Value}"));
                await output.WriteLineAsync(string.Create(
                    CultureInfo.InvariantCulture,
                    $"{status.JobId}: {status.State.ToString().ToLowerInvariant()}, {status.Succeeded} succeeded, {status.Failed} failed, {status.Leased} running, {status.Remaining} left of {status.Total}; by silo: {(bySilo.Length == 0 ? "none yet" : bySilo)}"));
            }

            return ExitCodes.Success;
        });
        return command;
    }
#else
    /// <summary>A stand-in that takes whatever follows <c>cluster</c> and says the verbs are not in this build.</summary>
    public static Command Create(CliConsole console)
    {
        var cluster = new Command("cluster", "Not in this build (NativeAOT): run conversions across machines.") { TreatUnmatchedTokensAsErrors = false };
        cluster.SetAction(async (_, _) =>
        {
            await console.Error.WriteLineAsync(NotInThisBuild);
            return ExitCodes.Usage;
        });
        return cluster;
    }
#endif
}
