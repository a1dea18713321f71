package org.viadsm.via.internal;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JavaProcessTest
{
    static final class Child
    {
        public static void main(final String[] args)
        {
            AgronaAccess.check();
            System.out.println("child " + String.join(",", args) + " " + System.getProperty("child.flag"));
        }
    }

    @Test
    void shouldBuildCommandWithExportsClassPathAndArguments()
    {
        final List<String> command = JavaProcess.command("a.Main", List.of("-Dx=1"), List.of("p", "q"));
        assertEquals(JavaProcess.javaBinary(), command.get(0));
        assertEquals(AgronaAccess.ADD_EXPORTS, command.get(1));
        assertEquals("-Dx=1", command.get(2));
        assertEquals("-cp", command.get(3));
        assertEquals(JavaProcess.classPath(), command.get(4));
        assertEquals(List.of("a.Main", "p", "q"), command.subList(5, 8));
    }

    @Test
    @Timeout(60)
    void shouldRunAChildJvmOnTheTestClassPath() throws Exception
    {
        final Process process = JavaProcess.start(Child.class, List.of("-Dchild.flag=yes"), List.of("a", "b"));
        try (BufferedReader out = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
        {
            assertEquals("child a,b yes", out.readLine());
        }
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue());
    }
}
