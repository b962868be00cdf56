/** The fuzzy unified diff specification's own example patches, shared by the parse and apply tests. */

export const specSingle = `--- filename: example.rs
+++ filename: example.rs
@@ @@
  fn main() {
-    println!("Hello, world!");
+    println!("Goodbye, world!");
  }
`;

export const specMulti = `--- filename: compute.rs
+++ filename: compute.rs
@@ @@
  fn compute(x: i32) -> i32 {
-    let y = x * 2;
-    println!("Value: {}", y);
-    println!("Debug info:");
-    println!("  - multiplier: 2");
-    println!("  - input: {}", x);
+    let y = x + 10;
+    println!("Result: {}", y);
+    println!("Input was: {}", x);
     y
  }
`;

export const specThreeHunks = `--- filename: config.rs
+++ filename: config.rs
@@ @@
 use std::path::Path;
+use std::time::Duration;
 
 struct Config {
     path: String,
-    timeout: u32,
+    timeout: Duration,
     retries: u8,
 }
@@ @@
     fn new(path: &str) -> Self {
         Config {
             path: path.to_string(),
-            timeout: 30,
+            timeout: Duration::from_secs(30),
             retries: 3,
         }
     }
@@ @@
     fn validate(&self) -> bool {
-        Path::new(&self.path).exists()
+        let path = Path::new(&self.path);
+        path.exists() && path.is_file()
     }
`;

export const specBeginning = `\`\`\`diff
--- filename: main.rs
+++ filename: main.rs
@@ @@
+// Copyright 2024 Example Corp.
+// Licensed under MIT
 fn main() {
     println!("Hello!");
}
\`\`\`
`;
