# frozen_string_literal: true

module Ractorbench
  module Profile
    # Where a profile's samples went, in categories a Ruby developer can act
    # on, declared once: each category's words for a person, and the
    # patterns that claim a function, native (perf: the interpreter's C
    # functions, libc, the kernel) or Ruby (vernier: methods and blocks).
    # The first category whose pattern matches claims the function, so the
    # order matters where names overlap.
    module Categories
      # label: a few words for tables and sentences; meaning: what it holds.
      Category = Struct.new(:key, :label, :meaning, :native, :kernel, :ruby, keyword_init: true)

      NONE = /(?!)/

      TABLE = [
        Category.new(key: "gc", label: "garbage collection", meaning: "marking, sweeping, freeing, write barriers, and the run's cores idle while it ran",
          native: /\A(?:rb_)?gc_|\Agc\z|garbage_collect|\Arb_objspace_|\Aobjspace_(?!x)|\Aheap_|obj_free|\Amark_|_mark(?:_|\z)|
            \Arb_mark|mark_and_move|_memsize|writebarrier|\Arb_gc_(?!impl_new)|each_location|\Arb_vm_update_references|
            \Aupdate_(?:ref|object)|\Arb_gc\z|\Arb_gc_impl_(?:mark|sweep|free|start)|\Agc\./x,
          kernel: NONE, ruby: /\AGC\b|\(garbage collection\)|\AGC\.start\z/),
        Category.new(key: "allocation", label: "allocation", meaning: "new objects, malloc and free",
          native: /newobj|\Arb_(?:ec_)?(?:str|ary|hash|obj|class|float|big|rational|struct|proc|range|imemo)_(?:new|alloc|resurrect|buf_new)|
            \A(?:str|ary|hash|obj|rb_obj)_(?:alloc|new|duplicate|replace)|_alloc(?:_|\z)|\Aruby_x(?:malloc|calloc|realloc|free)|
            \Aobjspace_x|\A(?:__libc_)?(?:malloc|calloc|realloc|free|cfree)\z|\A_int_(?:malloc|free|realloc)|\Atcache_|
            \Amalloc_|\Aunlink_chunk|\Asysmalloc|\Arb_class_new_instance|\Arb_obj_alloc|\Arb_str_dup|\Arb_ary_dup|
            \Arb_hash_dup|\Arb_obj_clone|\Arb_obj_dup|\Aclass_call_alloc_func|\Arb_data_object_/x,
          kernel: NONE, ruby: /\.new\z|\.allocate\z|#initialize\z|#dup\z|#clone\z/),
        Category.new(key: "locks", label: "VM locks and barriers", meaning: "the VM lock, ractor locks, the stop-the-world barrier, mutexes",
          native: /barrier|\Arb_vm_lock|\Avm_lock|\Arb_ec_vm_lock|\Arb_vm_unlock|\Avm_unlock|\Arb_native_mutex_|\Anative_mutex_|
            \A_*pthread_(?:mutex|spin|rwlock)|\A__lll_lock|\A__lll_unlock|\Alll_lock|\Arb_ractor_(?:lock|unlock)|\Aractor_lock|
            \Aractor_unlock|\Arb_vm_locked_p|\Arb_vm_cond_/x,
          kernel: NONE, ruby: /Mutex#(?:lock|synchronize)|Monitor#/),
        Category.new(key: "messages", label: "messages", meaning: "between workers: ractor send, receive and copy, Marshal, pipes",
          native: /\Aractor_(?:send|receive|copy|move|basket|queue|port_send|port_receive|yield|take|select|deliver)|
            \Arb_ractor_(?:send|receive|make_shareable|shareable|port)|obj_traverse|\Arb_obj_traverse|make_shareable|shareable_p|
            \A(?:copy|move)_(?:enter|leave)|\Aw_(?:object|long|byte|bytes|symbol|nbyte|encoding|ivar|float|extended|class)|
            \Ar_(?:object|long|byte|bytes|symbol|entry|ivar|string|unique)|\Amarshal_|\Arb_marshal|\Aio_(?:binwrite|fwrite|bufread|read|getpartial)|
            \Arb_io_(?:write|read|getbyte|binwrite|bufwrite)|\A__?(?:libc_)?(?:write|read)\z/x,
          kernel: /\Apipe_(?:write|read)\z|\Aanon_pipe_/, ruby: /\ARactor(?:::Port)?[#.](?:send|receive|<<|yield|take|select|make_shareable)|\AMarshal\.|\AIO#(?:read|write|readpartial|<<|sysread|syswrite)/),
        Category.new(key: "waiting", label: "waiting", meaning: "on other threads or ractors: the GVL, joins, receives, condition variables, and the run's cores idle otherwise",
          native: /\Athread_sched_|\Arb_thread_sched|\Agvl_|\Arb_gvl|native_cond_|\A_*pthread_cond_|futex|\Aractor_(?:wait|sleep|wakeup)|
            \Arb_ractor_sched_|\Athread_join|\Arb_thread_join|queue_sleep|\Arb_queue_pop|\Anative_sleep|\Asleep_|\Arb_thread_wait|
            \A(?:__)?(?:nanosleep|clock_nanosleep|epoll_wait|poll|ppoll|select|sched_yield)\z|\Atimer_thread|\Acoroutine_transfer|
            \Arb_thread_schedule|\Athread_start_func|\Aco_start/x,
          kernel: /futex|\Ado_epoll_wait|\Ado_sys_poll|\Ado_select|nanosleep|sys_sched_yield|\Aep_poll/,
          ruby: /\AThread#join|\AThread#value|\ARactor#(?:take|value|join)|Queue#(?:pop|shift|deq)|\AKernel#sleep|\AIO\.select|\AProcess\.wait/),
        Category.new(key: "kernel", label: "the kernel", meaning: "page faults, scheduling, system calls",
          # Every kernel frame no other category claims.
          native: NONE, kernel: NONE, ruby: NONE),
        Category.new(key: "others", label: "other programs", meaning: "the run's cores taken by other programs while its threads were ready to run",
          native: NONE, kernel: NONE, ruby: NONE),
        Category.new(key: "work", label: "the work's own code", meaning: "its methods compiled by the JIT (perf), or its Ruby frames (vernier)",
          native: /\A\[JIT\]/, kernel: NONE, ruby: NONE),
        Category.new(key: "interpreter", label: "the interpreter", meaning: "running bytecode, method calls, core methods (Array, String, Integer, ...)",
          native: NONE, kernel: NONE, ruby: NONE),
        Category.new(key: "libraries", label: "other native code", meaning: "libc, C extensions",
          native: NONE, kernel: NONE, ruby: NONE),
        Category.new(key: "unnamed", label: "code with no symbol", meaning: "a stripped build's functions, JIT code without a perf map",
          native: NONE, kernel: NONE, ruby: NONE)
      ].freeze

      BY_KEY = TABLE.to_h { |c| [c.key, c] }.freeze
      KEYS = TABLE.map(&:key).freeze

      # The frames that mean the kernel handled a page fault, whatever the
      # program was doing when it touched the page.
      PAGE_FAULT = /\A(?:asm_)?exc_page_fault|\Ahandle_mm_fault|\Ado_user_addr_fault/

      module_function

      def label(key) = BY_KEY.fetch(key).label

      # "garbage collection: marking, ...; allocation: ...": the legend.
      def legend(keys = KEYS) = keys.map { |k| "#{BY_KEY.fetch(k).label}: #{BY_KEY.fetch(k).meaning}" }.join("; ")

      # The category of one perf sample. kernel: its kernel frames, leaf
      # first; user: the first user-space frame as [symbol, dso], or nil
      # (only that frame is trustworthy: deeper ones need frame pointers
      # the interpreter is not built with); interpreter: whether dso is the
      # Ruby under test (its binary or libruby).
      def native(kernel, user, interpreter:)
        return "kernel" if kernel.any? { |f| PAGE_FAULT.match?(f) }

        if user
          symbol, = user
          # glibc's internal aliases: __GI___lll_lock_wait, pthread_cond_wait@@GLIBC_2.3.2.
          symbol = symbol&.sub(/\A__GI_/, "")&.sub(/@.*\z/, "")
          if symbol
            found = TABLE.find { |c| c.native.match?(symbol) }
            return found.key if found
          end
        end
        unless kernel.empty?
          kernel.each do |f|
            found = TABLE.find { |c| c.kernel.match?(f) }
            return found.key if found
          end
          return "kernel"
        end
        return "unnamed" if user.nil? || user.first.nil?

        interpreter ? "interpreter" : "libraries"
      end

      # The category of one vernier sample: its leaf frame's name, whether
      # the thread was waiting (vernier's Idle and Stalled) and whether a GC
      # pause covered it; own: whether the file is the work's
      # (not the harness's, nor a gem's or Ruby's own).
      def ruby(name, waiting:, gc:, own:)
        # A thread asleep (the main one awaiting results) is waiting, GC or
        # not; one caught in a Ruby frame during a GC pause was stopped by it.
        return "waiting" if waiting
        return "gc" if gc

        found = TABLE.find { |c| c.ruby.match?(name.to_s) }
        return found.key if found

        own ? "work" : "interpreter"
      end
    end
  end
end
