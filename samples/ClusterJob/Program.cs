// A cluster job on one machine: a silo in this process (development clustering on loopback, jobs in memory) with a
// "price" handler registered by name, a job of 200 products submitted to it, its outcomes watched as they are recorded,
// and Millrace.Parallel's instruments (the same names on every silo, tagged with the job's name) exported with
// OpenTelemetry. On real machines the silos run elsewhere, keep jobs in Redis, and the submitter is a cluster client.
using System.Net;
using System.Net.Sockets;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Millrace.Cluster.Hosting;
using Millrace.Cluster.Jobs;
using Millrace.Parallel.Metrics;
using Millrace.Parallel.Retry;
using OpenTelemetry.Metrics;

var builder = Host.CreateApplicationBuilder(args);
builder.Logging.ClearProviders();
builder.UseOrleans(silo => silo
    .UseLocalhostClustering(siloPort: FreePort(), gatewayPort: FreePort())
    .AddMemoryGrainStorage(ClusterHostingConstants.StorageName)
    .AddMillraceWorker<PriceHandler>("price", o => o.MaxDegreeOfParallelism = 8));
builder.Services.AddOpenTelemetry().WithMetrics(metrics => metrics
    .AddMeter(ParallelInstruments.MeterName)
    .AddConsoleExporter((_, reader) => reader.PeriodicExportingMetricReaderOptions.ExportIntervalMilliseconds = 60_000));

var host = builder.Build();
await host.StartAsync();
var jobs = new ClusterJobs(host.Services.GetRequiredService<IGrainFactory>());
var products = Enumerable.Range(1, 200).Select(i => new WorkItem($"sku-{i:000}", $"https://prices.example/sku-{i:000}"));
await jobs.SubmitAsync("prices", "price", products, new ClusterJobOptions { Retry = new RetryOptions { MaxRetryAttempts = 3, Delay = TimeSpan.FromMilliseconds(10) } });

var failed = 0;
var done = 0;
await foreach (var outcome in jobs.WatchAsync("prices"))
{
    done++;
    if (!outcome.Succeeded)
    {
        failed++;
        Console.WriteLine($"{outcome.Key}: {outcome.Error!.Code}: {outcome.Error.Message}");
    }
}

var status = await jobs.GetStatusAsync("prices");

await host.StopAsync();

// Disposing the host disposes the meter provider, which exports the metrics (items started, completed, failed,
// retried, their durations) to the console once more before the summary.
host.Dispose();
Console.WriteLine($"job prices: {status.State.ToString().ToLowerInvariant()}, {done} outcomes ({status.Succeeded} succeeded, {failed} failed) on {status.CompletedBySilo.Count} silo");

static int FreePort()
{
    using var listener = new TcpListener(IPAddress.Loopback, 0);
    listener.Start();
    return ((IPEndPoint)listener.LocalEndpoint).Port;
}

/// <summary>A price lookup that fails one call in five with a transient error; the job's retries cure most.</summary>
internal sealed class PriceHandler : IWorkItemHandler
{
    public async ValueTask HandleAsync(WorkItem item, CancellationToken cancellationToken)
    {
        await Task.Delay(2, cancellationToken);
        if (Random.Shared.Next(5) == 0)
        {
            throw new HttpRequestException($"{item.Payload}: 503 Service Unavailable");
        }
    }
}
