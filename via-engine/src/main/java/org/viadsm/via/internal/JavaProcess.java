package org.viadsm.via.internal;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;

/**
 * Starts a child JVM running a given main class with this JVM's java binary and class path and the JVM option
 * viadsm needs ({@link AgronaAccess#ADD_EXPORTS}): for multi-process tests and for launching DSM nodes. The child
 * gets this JVM's {@code viadsm.*} and {@code agrona.*} system properties, so that its NICs wait and check the way
 * this JVM's do (options given explicitly come after them and win).
 * <p>
 * Inside a surefire test run the class path comes from the {@code surefire.test.class.path} system property (the
 * forked test JVM may run from a manifest-only jar), else from {@code java.class.path}.
 */
public final class JavaProcess
{
    /** Lets the ucx provider bind UCX (FFM and jucx's JNI library) without the JVM's warning. */
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    /** System property surefire sets to the test class path. */
    public static final String TEST_CLASS_PATH_PROP_NAME = "surefire.test.class.path";

    private JavaProcess()
    {
    }

    /**
     * The java binary of this JVM.
     *
     * @return its path.
     */
    public static String javaBinary()
    {
        final Path bin = Paths.get(System.getProperty("java.home"), "bin");
        final Path windows = bin.resolve("java.exe");
        return (Files.isRegularFile(windows) ? windows : bin.resolve("java")).toString();
    }

    /**
     * The class path a child JVM should use.
     *
     * @return the test class path inside surefire, else this JVM's class path.
     */
    public static String classPath()
    {
        final String testClassPath = System.getProperty(TEST_CLASS_PATH_PROP_NAME);
        return null != testClassPath && !testClassPath.isEmpty() ?
            testClassPath : System.getProperty("java.class.path");
    }

    /**
     * The command line of a child JVM.
     *
     * @param mainClass fully qualified name of the main class.
     * @param jvmArgs   extra JVM options, placed after the add-exports option.
     * @param args      program arguments.
     * @return the command, ready for a {@link ProcessBuilder}.
     */
    public static List<String> command(final String mainClass, final List<String> jvmArgs, final List<String> args)
    {
        return command(mainClass, List.of(), jvmArgs, args);
    }

    /**
     * The command line of a child JVM whose class path starts with extra entries, e.g. a user's program.
     *
     * @param mainClass       fully qualified name of the main class.
     * @param classPathPrefix entries placed before this JVM's class path.
     * @param jvmArgs         extra JVM options, placed after the add-exports option.
     * @param args            program arguments.
     * @return the command, ready for a {@link ProcessBuilder}.
     */
    public static List<String> command(
        final String mainClass, final List<String> classPathPrefix, final List<String> jvmArgs,
        final List<String> args)
    {
        final List<String> entries = new ArrayList<>(classPathPrefix);
        entries.add(classPath());
        final List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.add(AgronaAccess.ADD_EXPORTS);
        command.add(NATIVE_ACCESS);
        command.addAll(forwardedProperties());
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(String.join(File.pathSeparator, entries));
        command.add(mainClass);
        command.addAll(args);
        return command;
    }

    /**
     * This JVM's {@code viadsm.*} and {@code agrona.*} system properties, as JVM options for a child.
     *
     * @return one {@code -Dname=value} per property, in name order.
     */
    public static List<String> forwardedProperties()
    {
        return forwardedProperties(System.getProperties());
    }

    /**
     * The {@code viadsm.*} and {@code agrona.*} properties of a set, as JVM options for a child.
     *
     * @param properties the properties, e.g. this JVM's.
     * @return one {@code -Dname=value} per property, in name order.
     */
    public static List<String> forwardedProperties(final Properties properties)
    {
        final List<String> options = new ArrayList<>();
        for (final String name : new TreeSet<>(properties.stringPropertyNames()))
        {
            if (name.startsWith("viadsm.") || name.startsWith("agrona."))
            {
                options.add("-D" + name + "=" + properties.getProperty(name));
            }
        }
        return options;
    }

    /**
     * A process builder for a child JVM; the caller sets up its I/O and starts it.
     *
     * @param mainClass the main class.
     * @param jvmArgs   extra JVM options.
     * @param args      program arguments.
     * @return the builder, working directory unchanged.
     */
    public static ProcessBuilder builder(final Class<?> mainClass, final List<String> jvmArgs, final List<String> args)
    {
        return new ProcessBuilder(command(mainClass.getName(), jvmArgs, args));
    }

    /**
     * Starts a child JVM whose standard error goes to this process's, and whose standard input and output are
     * pipes for the caller.
     *
     * @param mainClass the main class.
     * @param jvmArgs   extra JVM options.
     * @param args      program arguments.
     * @return the started process.
     * @throws UncheckedIOException if the process cannot be started.
     */
    public static Process start(final Class<?> mainClass, final List<String> jvmArgs, final List<String> args)
    {
        try
        {
            return builder(mainClass, jvmArgs, args).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot start " + mainClass.getName() + " with " + javaBinary() +
                " and class path of " + classPath().split(File.pathSeparator).length + " entries", ex);
        }
    }
}
