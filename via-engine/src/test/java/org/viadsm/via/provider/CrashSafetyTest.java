package org.viadsm.via.provider;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.internal.JavaProcess;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Scenarios that used to crash the JVM, each run in a child JVM that must exit normally and report what it saw.
 */
@Timeout(120)
class CrashSafetyTest
{
    private static final long T = 10_000_000_000L;

    /**
     * An asynchronous-error handler closes its own NIC: once from {@code recvDone}, once from inside a
     * {@code recvWait}. Argument: the scheme.
     */
    static final class HandlerClosesNic
    {
        public static void main(final String[] args) throws Exception
        {
            closeFromHandler(args[0], false);
            closeFromHandler(args[0], true);
            System.out.println("SURVIVED");
        }

        private static void closeFromHandler(final String scheme, final boolean waiting)
        {
            final Nic a = Nic.open(Providers.address(scheme));
            final Nic b = Nic.open(Providers.address(scheme));
            final Vi va = vi(a);
            final Vi vb = vi(b);
            Providers.connect(va, b.address(), vb, a.address());
            final MemoryRegion region = a.registerMemory(a.allocateMemory(4096),
                MemoryAttributes.localOnly(va.attributes().ptag()));
            va.postRecv(Descriptor.allocate(1).reset().send().addSegment(region, 0, 64));
            a.errorHandler((error, vi, detail) ->
            {
                System.out.println("HANDLER " + error);
                a.close();
            });
            b.close();
            final long deadlineNs = System.nanoTime() + T;
            while (!a.isClosed() && System.nanoTime() - deadlineNs < 0)
            {
                // the handler runs inside one of these calls once the loss has reached a (at once where peers share
                // memory; a transport may flush the receive before it reports the loss)
                if (waiting)
                {
                    va.recvWait(T);
                }
                else
                {
                    va.recvDone();
                }
            }
            final Path file = a.context().shmDirectory().resolve("viadsm-" + a.address().substring(4) + ".nic");
            System.out.println("CLOSED " + a.isClosed() + " FILE " + (a.address().startsWith("shm:") &&
                Files.exists(file)));
            a.close();
        }
    }

    /**
     * A peer's RDMA Write into a read-only mapping registered with RDMA Write enabled. Arguments: a directory for the
     * mapped file, unique tag.
     */
    static final class ReadOnlyTarget
    {
        public static void main(final String[] args) throws Exception
        {
            final Path file = Files.write(Paths.get(args[0]).resolve("read-only.bin"), new byte[4096]);
            final MappedByteBuffer readOnly;
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
            {
                readOnly = channel.map(FileChannel.MapMode.READ_ONLY, 0, 4096);
            }
            final Nic a = Nic.open("jvm:ra" + args[1]);
            final Nic b = Nic.open("jvm:rb" + args[1]);
            final Vi va = vi(a, true);
            final Vi vb = vi(b, true);
            Providers.connect(va, b.address(), vb, a.address());
            MemoryRegion target = null;
            try
            {
                target = b.registerMemory(readOnly, MemoryAttributes.remoteAccess(vb.attributes().ptag()));
                System.out.println("REGISTERED");
            }
            catch (final IllegalArgumentException ex)
            {
                System.out.println("REFUSED " + ex.getMessage().contains("read-only"));
            }
            if (null != target)
            {
                final MemoryRegion local = a.registerMemory(a.allocateMemory(4096),
                    MemoryAttributes.remoteAccess(va.attributes().ptag()));
                va.postSend(Descriptor.allocate(1).reset().rdmaWrite(target.handle(), 0).addSegment(local, 0, 64));
                System.out.println("WRITTEN " + va.sendWait(T));
            }
            a.close();
            b.close();
            System.out.println("SURVIVED");
        }
    }

    private static Vi vi(final Nic nic, final boolean rdmaWrite)
    {
        return nic.createVi(new ViAttributes().ptag(nic.createPtag()).enableRdmaWrite(rdmaWrite)
            .reliabilityLevel(ReliabilityLevel.RELIABLE_DELIVERY), null, null);
    }

    private static Vi vi(final Nic nic)
    {
        return nic.createVi(new ViAttributes().ptag(nic.createPtag())
            .reliabilityLevel(ReliabilityLevel.RELIABLE_DELIVERY), null, null);
    }

    /** Runs a main in a child JVM; its output lines once it has exited normally (it is killed after 60 s). */
    private static List<String> run(final Class<?> main, final String... args) throws Exception
    {
        final Process process = JavaProcess.start(main, List.of("-Xmx64m", "-XX:+UseSerialGC",
            "-XX:-CreateCoredumpOnCrash", "-XX:ErrorFile=/dev/null"), List.of(args));
        final List<String> lines = new CopyOnWriteArrayList<>();
        final Thread reader = new Thread(() ->
        {
            try (BufferedReader out = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
            {
                String line;
                while (null != (line = out.readLine()))
                {
                    lines.add(line);
                }
            }
            catch (final IOException ignore)
            {
                // the child is gone; its lines so far are kept
            }
        }, "child-output");
        reader.setDaemon(true);
        reader.start();
        final boolean exited = process.waitFor(60, TimeUnit.SECONDS);
        if (!exited)
        {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        reader.join(10_000);
        assertTrue(exited, "child still running after 60 s, killed: " + lines);
        assertEquals(0, process.exitValue(), "child output: " + lines);
        return new ArrayList<>(lines);
    }

    private static String tag()
    {
        return Long.toString(ProcessHandle.current().pid(), 36) + Long.toString(System.nanoTime() & 0xFFFFF, 36);
    }

    @Test
    void registeringReadOnlyMemoryShouldFailInsteadOfCrashingAtThePeersWrite(@TempDir final Path dir) throws Exception
    {
        assertEquals(List.of("REFUSED true", "SURVIVED"), run(ReadOnlyTarget.class, dir.toString(), tag()));
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void closingTheNicFromItsErrorHandlerShouldNotCrashTheJvm(final String scheme) throws Exception
    {
        final List<String> lines = run(HandlerClosesNic.class, scheme);
        assertEquals(List.of(
            "HANDLER CONNECTION_LOST", "CLOSED true FILE false",
            "HANDLER CONNECTION_LOST", "CLOSED true FILE false",
            "SURVIVED"), lines);
    }
}
